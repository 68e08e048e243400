// A switchable rule: the garden lights follow dusk and dawn unless the host turns the rule off with its
// Switch Item (vRuleItemForGarden_lights_at_night), as rules.SwitchableJSRule provides.
const { rules, triggers, items } = require('openhab');

rules.SwitchableJSRule({
  name: 'Garden lights at night',
  description: 'Lights on at 17:00, off at 23:00',
  triggers: [triggers.TimeOfDayTrigger('17:00'), triggers.TimeOfDayTrigger('23:00')],
  execute: (event) => {
    const on = event.time === '17:00';
    items.Garden_Lights.sendCommand(on ? 'ON' : 'OFF');
    items.Garden_Lights_Switched.postUpdate((items.Garden_Lights_Switched.numericState ?? 0) + 1);
  },
});
