// Presence: when the motion sensor has been quiet for 20 minutes the flat is "away" and the heating drops to
// eco; any motion cancels the pending timer and marks the flat occupied again. The timer lives in
// cache.private, as the openhab-js README recommends, so a reload cancels it.
const { items, rules, triggers, time, actions, cache } = require('openhab');

const logger = log('presence');
const AWAY_AFTER = time.Duration.ofMinutes(20);

rules.JSRule({
  name: 'Presence: motion seen',
  triggers: [triggers.ItemStateChangeTrigger('Hall_Motion', 'OFF', 'ON')],
  execute: () => {
    const pending = cache.private.get('awayTimer');
    if (pending && pending.isActive()) {
      pending.cancel();
      logger.info('Motion again, away timer cancelled');
    }
    if (items.Flat_Presence.state !== 'ON') {
      items.Flat_Presence.sendCommand('ON');
      items.Heating_Setpoint.sendCommand('21 °C');
    }
  },
});

rules.JSRule({
  name: 'Presence: motion stopped',
  triggers: [triggers.ItemStateChangeTrigger('Hall_Motion', 'ON', 'OFF')],
  execute: () => {
    const existing = cache.private.get('awayTimer');
    const when = time.toZDT(AWAY_AFTER);
    if (existing && existing.isActive()) {
      existing.reschedule(when);
      return;
    }
    cache.private.put('awayTimer', actions.ScriptExecution.createTimer('away', when, () => {
      items.Flat_Presence.sendCommand('OFF');
      items.Heating_Setpoint.sendCommand('18 °C');
      const count = cache.private.get('awayCount', () => 0) + 1;
      cache.private.put('awayCount', count);
      items.Away_Count.postUpdate(count);
      logger.info(`Nobody home since ${time.ZonedDateTime.now().minus(AWAY_AFTER).toLocalTime()}`);
    }));
  },
});
