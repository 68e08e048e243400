// Watch the thermostat Thing: when it drops OFFLINE, raise an alert, remember when (a DateTime Item),
// notify the host with the notification builder and fall back to the fan heater; when it comes back,
// clear the alert. At start-up, log which mode the flat starts in.
const { items, rules, triggers, actions, time } = require('openhab');

const THERMOSTAT = 'twin:thermostat:flat-1:heating';
const logger = log('thermostat-watch');

rules.JSRule({
  name: 'Thermostat offline: alert and fall back to the fan heater',
  triggers: [triggers.ThingStatusChangeTrigger(THERMOSTAT, 'OFFLINE', 'ONLINE')],
  execute: (event) => {
    items.Heating_Alert.postUpdate('ON');
    items.Heating_Lost_At.postUpdate(time.ZonedDateTime.now());
    items.getItem('flat_1_fan_switch').sendCommand('ON');
    actions.notificationBuilder(`Thermostat ${event.thingUID} went ${event.newStatus}`)
      .addUserId('host@example.com')
      .withTitle('Heating')
      .send();
    logger.error('Thermostat {} went {} (was {})', event.thingUID, event.newStatus, event.oldStatus);
  },
});

rules.JSRule({
  name: 'Thermostat back online',
  triggers: [triggers.ThingStatusChangeTrigger(THERMOSTAT, 'ONLINE', 'OFFLINE')],
  execute: () => {
    items.Heating_Alert.postUpdate('OFF');
    items.flat_1_fan_switch.sendCommand('OFF');
    const lost = time.toZDT(items.Heating_Lost_At);
    const minutes = time.Duration.between(lost, time.ZonedDateTime.now()).toMinutes();
    items.Heating_Outage_Minutes.postUpdate(minutes);
    logger.info(`Thermostat is back after ${minutes} minutes`);
  },
});

rules.JSRule({
  name: 'Start-up report',
  triggers: [triggers.SystemStartlevelTrigger(100)],
  execute: () => logger.info(`Starting with the alert ${items.Heating_Alert.state}, fan ${items.flat_1_fan_switch.state}`),
});
