// Uses the personal library from automation/js/node_modules and a JSON settings file next to the script.
const { rules, triggers, items } = require('openhab');
const { setpointForGuests, VERSION } = require('rental-heating');
const settings = require('./guest-comfort-settings.json');

console.log(`guest comfort with rental-heating ${VERSION}`);

rules.JSRule({
  name: 'Guest comfort setpoint',
  id: 'guest-comfort',
  tags: ['Heating', 'Guests'],
  triggers: [
    triggers.ItemStateChangeTrigger('Guests_Tonight'),
    triggers.TimeOfDayTrigger(settings.checkInTime),
  ],
  execute: () => {
    items.Heating_Setpoint.sendCommand(setpointForGuests('Guests_Tonight'));
  },
});
