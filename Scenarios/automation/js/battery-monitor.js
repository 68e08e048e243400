// Battery monitor over the members of gBatteries: a daily report and an update on every member change.
const { items, rules, triggers } = require('openhab');

const LOW = 20;
const logger = log('battery');

const check = () => {
  const low = items.gBatteries.members
    .filter((item) => item.isInitialized && item.numericState < LOW)
    .sort((a, b) => a.numericState - b.numericState);
  const report = low.length === 0
    ? 'all batteries fine'
    : `${low.length} low: ${low.map(({ label, numericState }) => `${label} ${numericState}%`).join(', ')}`;
  items.Battery_Report.postUpdate(report);
  items.Battery_Low_Count.postUpdate(low.length);
  if (low.length > 0) logger.warn(report);
};

rules.JSRule({
  name: 'Battery check',
  description: 'Reports batteries under 20 %',
  triggers: [
    triggers.GenericCronTrigger('0 0 9 * * ?'),
    triggers.GroupStateChangeTrigger('gBatteries'),
  ],
  execute: check,
});
