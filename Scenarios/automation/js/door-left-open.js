// Door left open: if the entrance door stays open for 10 minutes, tell the host (once per opening).
const { items, rules, triggers, actions } = require('openhab');

let reminder = null;

rules.JSRule({
  name: 'Door left open',
  triggers: [triggers.ItemStateChangeTrigger('Entrance_Door')],
  execute: ({ itemName, newState }) => {
    if (newState === 'OPEN') {
      reminder = setTimeout(() => {
        const door = items.getItem(itemName);
        actions.NotificationAction.sendNotification('host@example.com', `${door.label} left open for 10 minutes`);
        console.warn(`${itemName} still open`);
        reminder = null;
      }, 10 * 60 * 1000);
    } else if (reminder !== null) {
      clearTimeout(reminder);
      reminder = null;
    }
  },
});
