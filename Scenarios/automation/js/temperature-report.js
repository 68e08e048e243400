// Persistence averages: every hour, the mean, maximum and number of changes of the room temperature over
// the last two hours, read through item.persistence (the scenario's persistence records Room_Temp).
const { items, rules, triggers, time } = require('openhab');

rules.JSRule({
  name: 'Temperature report',
  triggers: [triggers.GenericCronTrigger('0 0 * * * ?')],
  execute: () => {
    const history = items.Room_Temp.persistence;
    const since = time.ZonedDateTime.now().minusHours(2);
    const average = history.averageSince(since);
    const maximum = history.maximumSince(since);
    const changes = history.countStateChangesSince(since);
    if (average === null) return;
    items.Temp_Report.postUpdate(
      `avg ${average.numericState.toFixed(2)} max ${maximum.numericState} at ${maximum.timestamp.toLocalTime()} changes ${changes}`);
    const previous = history.previousState(true);
    items.Temp_Previous.postUpdate(previous === null ? 'none' : previous.state);
  },
});
