// Heating modes: comfort on weekday mornings, eco during the day, night setback in the evening.
// A mode change (from any source) sets the thermostat setpoint.
const { items, rules, triggers, time } = require('openhab');

const logger = log('heating');

const SETPOINTS = {
  COMFORT: 21.5,
  ECO: 19,
  NIGHT: 17,
};

rules.JSRule({
  name: 'Heating: weekday morning comfort',
  description: 'Comfort from 06:00 on working days',
  triggers: [triggers.GenericCronTrigger('0 0 6 ? * MON-FRI')],
  execute: () => {
    items.Heating_Mode.sendCommand('COMFORT');
  },
  tags: ['Heating'],
});

rules.JSRule({
  name: 'Heating: eco when the day starts',
  triggers: [triggers.TimeOfDayTrigger('09:00')],
  execute: () => {
    const now = time.ZonedDateTime.now();
    const weekend = now.dayOfWeek() === time.DayOfWeek.SATURDAY || now.dayOfWeek() === time.DayOfWeek.SUNDAY;
    items.getItem('Heating_Mode').sendCommand(weekend ? 'COMFORT' : 'ECO');
  },
});

rules.JSRule({
  name: 'Heating: night setback',
  triggers: [triggers.TimeOfDayTrigger('22:30')],
  execute: () => items.Heating_Mode.sendCommand('NIGHT'),
});

rules.JSRule({
  name: 'Heating: apply mode',
  triggers: [triggers.ItemCommandTrigger('Heating_Mode')],
  execute: (event) => {
    const mode = event.receivedCommand;
    const target = SETPOINTS[mode];
    if (target === undefined) {
      logger.warn('Unknown heating mode {}', mode);
      return;
    }
    const setpoint = items.Heating_Setpoint;
    if (setpoint.sendCommandIfDifferent(`${target} °C`)) {
      logger.info(`Mode ${mode}: setpoint ${setpoint.quantityState} -> ${target} °C at ${time.toZDT().toLocalTime()}`);
    }
    items.Heating_Mode_Since.postUpdate(time.ZonedDateTime.now().format(time.DateTimeFormatter.ofPattern('EEE HH:mm')));
  },
});
