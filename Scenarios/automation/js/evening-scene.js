// Evening scene: at sunset (the astro binding's channel event) the living-room lights go on through
// their Group; a command to the Group is counted per member; the "vacation" switch disables the scene
// rule with rules.setEnabled, and a manual scene request runs the scene rule with rules.runRule.
const { items, rules, triggers } = require('openhab');

const logger = log('scene');

rules.JSRule({
  name: 'Evening scene',
  id: 'evening-scene',
  triggers: [triggers.ChannelEventTrigger('astro:sun:home:set#event', 'START')],
  execute: (event) => {
    logger.info(event.channelUID ? `${event.channelUID} fired ${event.receivedEvent}` : 'run on request');
    items.gLivingLights.sendCommand('ON');
  },
});

rules.JSRule({
  name: 'Count light commands',
  triggers: [triggers.GroupCommandTrigger('gLivingLights')],
  execute: ({ itemName, receivedCommand }) => {
    const counter = items.Light_Commands;
    counter.postUpdate((counter.numericState ?? 0) + 1);
    logger.info('{} got {}', itemName, receivedCommand);
  },
});

rules.JSRule({
  name: 'Vacation mode',
  triggers: [triggers.ItemStateChangeTrigger('Vacation')],
  execute: ({ newState }) => rules.setEnabled('evening-scene', newState !== 'ON'),
});

rules.JSRule({
  name: 'Scene on request',
  triggers: [triggers.ItemCommandTrigger('Scene_Request', 'EVENING')],
  execute: () => rules.runRule('evening-scene'),
});
