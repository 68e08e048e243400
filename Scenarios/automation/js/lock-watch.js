// Smart lock watch: when the front door lock drops off the network, tell the host on Telegram, and publish the
// lock's status to the house's MQTT broker (its Thing action answers whether the message was queued).
const LOCK = 'twin:lock:flat-1:door';
const broker = actions.thingActions('mqtt', 'mqtt:broker:home');
const telegram = actions.thingActions('telegram', 'telegram:telegramBot:host');

rules.JSRule({
  name: 'Lock status alert',
  triggers: [triggers.ThingStatusChangeTrigger(LOCK)],
  execute: (event) => {
    const lock = things.getThing(LOCK);
    const queued = broker.publishMQTT('flat1/lock/status', lock.status, true);
    if (queued !== true) console.warn(`MQTT publish for ${lock.uid} not confirmed (${queued})`);
    if (event.newStatus === 'OFFLINE') {
      const at = time.ZonedDateTime.now().format(time.DateTimeFormatter.ofPattern('HH:mm'));
      telegram.sendTelegram(`${lock.label || lock.uid} went ${lock.statusInfo} at ${at}; guests cannot unlock it remotely.`);
    }
    items.getItem('Lock_Status').postUpdate(lock.status);
  },
});

// Every morning: which Things are not ONLINE.
rules.JSRule({
  name: 'Morning Thing report',
  triggers: [triggers.TimeOfDayTrigger('07:00')],
  execute: () => {
    const down = things.getThings().filter((t) => t.status !== 'ONLINE').map((t) => t.uid);
    items.getItem('Things_Down').postUpdate(down.length === 0 ? 'none' : down.join(', '));
    const info = actions.Things.getThingStatusInfo(LOCK);
    console.info(`lock: ${info.getStatus()}; unknown Thing: ${actions.Things.getThingStatusInfo('zwave:device:none')}`);
  },
});
