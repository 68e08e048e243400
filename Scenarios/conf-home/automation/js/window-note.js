// Hallway window: note when it was last opened, for the host's dashboard.
const { items, rules, triggers, time } = require('openhab');

rules.JSRule({
  name: 'Hallway window note',
  description: 'Writes the time the hallway window was opened',
  triggers: [triggers.ItemStateChangeTrigger('Hall_Window', undefined, 'OPEN')],
  execute: (event) => {
    const at = time.ZonedDateTime.now().format(time.DateTimeFormatter.ofPattern('HH:mm'));
    items.getItem('Window_Note').postUpdate(`${event.itemName} opened at ${at}`);
  },
});
