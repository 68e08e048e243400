// Away mode, written as real configurations reach openHAB's Java side: the RuleManager service through osgi
// (enable/disable a rule, run a rule without triggers) and openHAB's state types through Java.type.
const { rules, triggers, items, osgi, cache } = require('openhab');

const RuleManager = osgi.getService('org.openhab.core.automation.RuleManager');
const QuantityType = Java.type('org.openhab.core.library.types.QuantityType');
const PercentType = Java.type('org.openhab.core.library.types.PercentType');
const DecimalType = Java.type('org.openhab.core.library.types.DecimalType');
const OnOffType = Java.type('org.openhab.core.library.types.OnOffType');

const SETBACK = new QuantityType('3.5 °C');

rules.JSRule({
  name: 'Hall light on motion',
  id: 'hall-motion-light',
  triggers: [triggers.ItemStateChangeTrigger('Hall_Motion', 'OFF', 'ON')],
  execute: () => {
    items.Hall_Light.sendCommand(new PercentType(80));
  },
});

rules.JSRule({
  name: 'Welcome back scene',
  id: 'welcome-back',
  execute: (event) => {
    items.Hall_Light.sendCommand(new PercentType(60));
    const away = new DecimalType(event.raw.hoursAway);
    items.House_Status.postUpdate(`welcome back after ${away.format('%.1f')} h`);
  },
});

rules.JSRule({
  name: 'Away mode',
  triggers: [triggers.ItemStateChangeTrigger('Away_Mode')],
  execute: (event) => {
    const setpoint = items.Heating_Setpoint.rawState;
    if (items.Away_Mode.rawState === OnOffType.ON) {
      cache.private.put('comfort', setpoint);
      cache.private.put('leftAt', Date.now());
      RuleManager.setEnabled('hall-motion-light', false);
      items.Heating_Setpoint.sendCommand(setpoint.subtract(SETBACK));
      items.House_Status.postUpdate(`away; motion light ${RuleManager.getStatus('hall-motion-light')}`);
    } else {
      const comfort = cache.private.get('comfort', () => new QuantityType('21 °C'));
      const hoursAway = (Date.now() - cache.private.get('leftAt', () => Date.now())) / 3600000;
      RuleManager.setEnabled('hall-motion-light', true);
      if (!comfort.equals(setpoint)) items.Heating_Setpoint.sendCommand(comfort);
      RuleManager.runNow('welcome-back', true, { hoursAway });
    }
  },
});
