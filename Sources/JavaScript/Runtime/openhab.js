// RentalTwin's openhab-js: the openHAB JavaScript Scripting API, written for the twin, evaluated inside each
// script file's `vm` context. It reaches the twin only through `__twinHost` (Items mirrored from the twin,
// effects sent back as JSON: commands, updates, log lines, outbox entries, timers on the virtual clock).
// Anything it does not implement throws a located `rules.jsUnsupported` error naming the member.
(function (global) {
  'use strict';
  // The host's functions are wrapped in functions of this realm and the global is removed, so no script can
  // reach an object of Node's own realm (whose Function constructor would reach `process`).
  const hostObject = global.__twinHost;
  delete global.__twinHost;
  const rethrow = (e) => {
    if (e && typeof e === 'object' && !(e instanceof Error)) {
      const copy = new Error(String(e.message));
      copy.name = String(e.name || 'Error');
      if (e.code) copy.code = String(e.code);
      if (e.location) copy.location = String(e.location);
      if (e.__twinUnsupported) copy.__twinUnsupported = true;
      copy.stack = `${copy.name}: ${copy.message}\n${String(e.stack || '').split('\n').slice(1).join('\n')}`;
      return copy;
    }
    return e;
  };
  const wrap = (f) => (...args) => { try { return f(...args); } catch (e) { throw rethrow(e); } };
  const host = {
    now: wrap(hostObject.now), zone: String(hostObject.zone), file: String(hostObject.file), confDir: String(hostObject.confDir),
    item: wrap(hostObject.item), state: wrap(hostObject.state), itemNames: wrap(hostObject.itemNames), emit: wrap(hostObject.emit),
    addRule: wrap(hostObject.addRule), createTimer: wrap(hostObject.createTimer), rescheduleTimer: wrap(hostObject.rescheduleTimer),
    cancelTimer: wrap(hostObject.cancelTimer), timerActive: wrap(hostObject.timerActive), require: wrap(hostObject.require),
    ask: wrap(hostObject.ask), thing: wrap(hostObject.thing), thingUIDs: wrap(hostObject.thingUIDs), load: wrap(hostObject.load)
  };
  // A UI rule's script module (its rule's UID), or null in a script file.
  const uiRule = hostObject.ui === undefined ? null : String(hostObject.ui);
  const hostRandom = hostObject.random;
  const privateStore = new Map(), sharedStore = hostObject.sharedCache;
  const RealDate = Date;
  // Captured before any script runs: an effect's text is JSON whatever a script does to its own JSON object.
  const stringify = JSON.stringify;
  const emit = (effect) => host.emit(stringify(effect));
  /** One question to the twin in the middle of a run; an `error` answer throws as the twin located it. */
  const askTwin = (question) => {
    const a = JSON.parse(host.ask(JSON.stringify(question)));
    if (a && a.error) { const e = new Error(a.error); e.code = a.code || 'rules.jsRuntime'; if (a.code === 'rules.jsUnsupported') e.__twinUnsupported = true; throw e; }
    return a;
  };
  const hide = (name, value) => Object.defineProperty(global, name, { value, writable: true, configurable: true, enumerable: false });

  function unsupported (what, hint) {
    const e = new Error(`${what} is not supported by the twin${hint ? ` (${hint})` : ''}`);
    e.name = 'rules.jsUnsupported';
    e.__twinUnsupported = true;
    return e;
  }

  // ------------------------------------------------------------ determinism: Date, Math.random, microtasks
  function TwinDate (...args) {
    if (!new.target) return new RealDate(host.now()).toString();
    return args.length === 0 ? Reflect.construct(RealDate, [host.now()], new.target) : Reflect.construct(RealDate, args, new.target);
  }
  TwinDate.prototype = RealDate.prototype;
  Object.setPrototypeOf(TwinDate, RealDate);
  TwinDate.now = () => host.now();
  TwinDate.UTC = RealDate.UTC;
  TwinDate.parse = RealDate.parse;
  Object.defineProperty(RealDate.prototype, 'constructor', { value: TwinDate, writable: true, configurable: true, enumerable: false });
  hide('Date', TwinDate);
  Math.random = function random () { return hostRandom(); };
  hide('queueMicrotask', (fn) => { Promise.resolve().then(fn); });
  for (const name of ['WeakRef', 'FinalizationRegistry', 'SharedArrayBuffer', 'Atomics', 'WebAssembly']) {
    if (name in global) delete global[name];
  }

  // ------------------------------------------------------------ formatting and logging
  function show (v) {
    if (typeof v === 'string') return v;
    if (v === undefined) return 'undefined';
    if (v === null) return 'null';
    if (typeof v === 'object' && typeof v.toString === 'function' && v.toString !== Object.prototype.toString && !Array.isArray(v)) return v.toString();
    try { return JSON.stringify(v); } catch (e) { return String(v); }
  }
  function slf4j (msg, args) {
    let text = show(msg); let i = 0;
    text = text.replace(/\{\}/g, (m) => (i < args.length ? show(args[i++]) : m));
    return text;
  }
  function logLine (level, logger, text) { emit({ k: 'log', level, logger, text }); }
  const fileStem = host.file.replace(/^.*\//, '').replace(/\.js$/, '');
  function makeLogger (name) {
    const logger = {
      name,
      error: (m, ...a) => logLine('ERROR', name, slf4j(m, a)),
      warn: (m, ...a) => logLine('WARN', name, slf4j(m, a)),
      info: (m, ...a) => logLine('INFO', name, slf4j(m, a)),
      // openHAB's default level is INFO: debug and trace lines are not written.
      debug: () => {},
      trace: () => {},
      atLevel: (level, m, ...a) => { const l = String(level).toUpperCase(); if (l === 'ERROR' || l === 'WARN' || l === 'INFO') logLine(l, name, slf4j(m, a)); },
      isDebugEnabled: () => false,
      isTraceEnabled: () => false,
      isInfoEnabled: () => true
    };
    return logger;
  }
  const consoleLine = (level) => (...args) => logLine(level, console.loggerName, args.map(show).join(' '));
  const console = {
    // openHAB: org.openhab.automation.script.ui.<ruleUID> for a UI rule's script, ….file.<stem> for a file.
    loggerName: uiRule ?? fileStem,
    log: consoleLine('INFO'), info: consoleLine('INFO'), warn: consoleLine('WARN'), error: consoleLine('ERROR'),
    debug: () => {}, trace: () => {},
    assert: (cond, ...args) => { if (!cond) consoleLine('ERROR')('Assertion failed:', ...args); }
  };

  // ------------------------------------------------------------ time (a js-joda subset)
  const MS_DAY = 86400000;
  // Made on the first offset asked: the first formatter of a child loads ICU's zone data (~13 ms), which a file
  // that never reads local time does not need.
  let zoneFormat = null;
  const offsets = new Map();
  function offsetAt (epochMs, zone) {
    if (zone === 'UTC' || zone === 'Z') return 0;
    const second = Math.floor(epochMs / 1000) * 1000;
    const key = Math.floor(epochMs / 900000);
    const cached = offsets.get(key);
    if (cached !== undefined) return cached;
    const parts = {};
    if (zoneFormat === null) {
      zoneFormat = new Intl.DateTimeFormat('en-US', { timeZone: host.zone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' });
    }
    for (const p of zoneFormat.formatToParts(new RealDate(second))) parts[p.type] = p.value;
    const local = RealDate.UTC(+parts.year, +parts.month - 1, +parts.day, +parts.hour % 24, +parts.minute, +parts.second);
    const offset = local - second;
    if (offsets.size > 4096) offsets.clear();
    offsets.set(key, offset);
    return offset;
  }
  /** java.time's resolution of a local date-time: earlier offset in an overlap (or the preferred one), later by the gap in a gap. */
  function resolveLocal (localMs, zone, preferred) {
    if (zone === 'UTC' || zone === 'Z') return localMs;
    const before = offsetAt(localMs - MS_DAY, zone), after = offsetAt(localMs + MS_DAY, zone);
    const valid = [...new Set([before, after, offsetAt(localMs - before, zone)])].filter((o) => offsetAt(localMs - o, zone) === o);
    if (valid.length === 0) return localMs - before;
    if (valid.length > 1) return preferred !== undefined && valid.includes(preferred) ? localMs - preferred : localMs - Math.max(...valid);
    return localMs - valid[0];
  }
  const pad = (n, w = 2) => String(Math.abs(n)).padStart(w, '0');
  function fieldsOf (localMs) {
    const d = new RealDate(localMs);
    return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate(), hour: d.getUTCHours(), minute: d.getUTCMinutes(), second: d.getUTCSeconds(), ms: d.getUTCMilliseconds(), dow: ((d.getUTCDay() + 6) % 7) + 1 };
  }
  function timeText (h, m, s, ms) {
    let t = `${pad(h)}:${pad(m)}`;
    if (s || ms) t += `:${pad(s)}`;
    if (ms) t += `.${pad(ms, 3)}`;
    return t;
  }
  function offsetText (o) {
    if (o === 0) return 'Z';
    const sign = o < 0 ? '-' : '+'; const a = Math.abs(o) / 60000;
    return `${sign}${pad(Math.floor(a / 60))}:${pad(a % 60)}`;
  }

  class DayOfWeek {
    constructor (v) { this._v = v; }
    value () { return this._v; }
    name () { return DOW_NAMES[this._v - 1]; }
    toString () { return this.name(); }
    equals (o) { return o instanceof DayOfWeek && o._v === this._v; }
    compareTo (o) { return this._v - o._v; }
    ordinal () { return this._v - 1; }
  }
  const DOW_NAMES = ['MONDAY', 'TUESDAY', 'WEDNESDAY', 'THURSDAY', 'FRIDAY', 'SATURDAY', 'SUNDAY'];
  const MONTH_NAMES = ['JANUARY', 'FEBRUARY', 'MARCH', 'APRIL', 'MAY', 'JUNE', 'JULY', 'AUGUST', 'SEPTEMBER', 'OCTOBER', 'NOVEMBER', 'DECEMBER'];
  for (let i = 0; i < 7; i++) DayOfWeek[DOW_NAMES[i]] = new DayOfWeek(i + 1);
  DayOfWeek.of = (v) => DayOfWeek[DOW_NAMES[v - 1]];
  class Month {
    constructor (v) { this._v = v; }
    value () { return this._v; }
    name () { return MONTH_NAMES[this._v - 1]; }
    toString () { return this.name(); }
    equals (o) { return o instanceof Month && o._v === this._v; }
  }
  for (let i = 0; i < 12; i++) Month[MONTH_NAMES[i]] = new Month(i + 1);
  Month.of = (v) => Month[MONTH_NAMES[v - 1]];

  class Duration {
    constructor (ms) { this._ms = ms; }
    static ofMillis (n) { return new Duration(n); }
    static ofSeconds (n) { return new Duration(n * 1000); }
    static ofMinutes (n) { return new Duration(n * 60000); }
    static ofHours (n) { return new Duration(n * 3600000); }
    static ofDays (n) { return new Duration(n * MS_DAY); }
    static of (n, unit) { return new Duration(n * unit._ms); }
    static between (a, b) { return new Duration(toEpoch(b) - toEpoch(a)); }
    static parse (text) {
      const m = /^([-+]?)P(?:(\d+)D)?(?:T(?:([-+]?\d+)H)?(?:([-+]?\d+)M)?(?:([-+]?\d+(?:\.\d+)?)S)?)?$/i.exec(String(text));
      if (!m || (!m[2] && !m[3] && !m[4] && !m[5])) throw new Error(`Text cannot be parsed to a Duration: ${text}`);
      const ms = (+(m[2] || 0)) * MS_DAY + (+(m[3] || 0)) * 3600000 + (+(m[4] || 0)) * 60000 + Math.round((+(m[5] || 0)) * 1000);
      return new Duration(m[1] === '-' ? -ms : ms);
    }
    toMillis () { return this._ms; }
    seconds () { return Math.floor(this._ms / 1000); }
    getSeconds () { return this.seconds(); }
    toSeconds () { return this.seconds(); }
    toMinutes () { return Math.trunc(this._ms / 60000); }
    toHours () { return Math.trunc(this._ms / 3600000); }
    toDays () { return Math.trunc(this._ms / MS_DAY); }
    plus (d) { return new Duration(this._ms + d._ms); }
    minus (d) { return new Duration(this._ms - d._ms); }
    plusSeconds (n) { return new Duration(this._ms + n * 1000); }
    plusMinutes (n) { return new Duration(this._ms + n * 60000); }
    plusHours (n) { return new Duration(this._ms + n * 3600000); }
    multipliedBy (n) { return new Duration(this._ms * n); }
    dividedBy (n) { return new Duration(Math.trunc(this._ms / n)); }
    negated () { return new Duration(-this._ms); }
    abs () { return new Duration(Math.abs(this._ms)); }
    isNegative () { return this._ms < 0; }
    isZero () { return this._ms === 0; }
    compareTo (o) { return Math.sign(this._ms - o._ms); }
    equals (o) { return o instanceof Duration && o._ms === this._ms; }
    toString () {
      if (this._ms === 0) return 'PT0S';
      const neg = this._ms < 0; let r = Math.abs(this._ms);
      const h = Math.floor(r / 3600000); r -= h * 3600000;
      const m = Math.floor(r / 60000); r -= m * 60000;
      const s = r / 1000;
      const sign = neg ? '-' : '';
      return 'PT' + (h ? sign + h + 'H' : '') + (m ? sign + m + 'M' : '') + (s ? sign + s + 'S' : '');
    }
  }
  Duration.ZERO = new Duration(0);

  class ChronoUnit {
    constructor (name, ms, local) { this._name = name; this._ms = ms; this._local = local; }
    toString () { return this._name; }
    name () { return this._name; }
    between (a, b) {
      if (this._local) {
        const za = toZDT(a), zb = toZDT(b);
        const months = this._local === 'months';
        if (months) {
          const fa = fieldsOf(za._local()), fb = fieldsOf(zb.withZoneSameInstant(za._zone)._local());
          let n = (fb.year - fa.year) * 12 + (fb.month - fa.month);
          const ra = za._local() - RealDate.UTC(fa.year, fa.month - 1, 1), rb = zb.withZoneSameInstant(za._zone)._local() - RealDate.UTC(fb.year, fb.month - 1, 1);
          if (n > 0 && rb < ra) n--; else if (n < 0 && rb > ra) n++;
          return Math.trunc(n / this._ms);
        }
        const diff = zb.withZoneSameInstant(za._zone)._local() - za._local();
        return Math.trunc(diff / this._ms);
      }
      // The twin's instants are whole milliseconds: micros and nanos are exact multiples.
      if (this._perMs) return (toEpoch(b) - toEpoch(a)) * this._perMs;
      return Math.trunc((toEpoch(b) - toEpoch(a)) / this._ms);
    }
  }
  ChronoUnit.NANOS = Object.assign(new ChronoUnit('Nanos', 1e-6), { _perMs: 1e6 });
  ChronoUnit.MICROS = Object.assign(new ChronoUnit('Micros', 1e-3), { _perMs: 1e3 });
  ChronoUnit.MILLIS = new ChronoUnit('Millis', 1);
  ChronoUnit.SECONDS = new ChronoUnit('Seconds', 1000);
  ChronoUnit.MINUTES = new ChronoUnit('Minutes', 60000);
  ChronoUnit.HOURS = new ChronoUnit('Hours', 3600000);
  ChronoUnit.HALF_DAYS = new ChronoUnit('HalfDays', 43200000);
  ChronoUnit.DAYS = new ChronoUnit('Days', MS_DAY, 'days');
  ChronoUnit.WEEKS = new ChronoUnit('Weeks', 7 * MS_DAY, 'days');
  ChronoUnit.MONTHS = new ChronoUnit('Months', 1, 'months');
  ChronoUnit.YEARS = new ChronoUnit('Years', 12, 'months');

  /** java.time's ChronoField, for `zdt.get(field)` / `getLong(field)` (Blockly's "get … of date"). */
  class ChronoField {
    constructor (name, read) { this._name = name; this._read = read; }
    toString () { return this._name; }
    name () { return this._name; }
  }
  const FIELD_READERS = {
    NANO_OF_SECOND: (f) => f.ms * 1e6, MICRO_OF_SECOND: (f) => f.ms * 1e3, MILLI_OF_SECOND: (f) => f.ms,
    SECOND_OF_MINUTE: (f) => f.second, MINUTE_OF_HOUR: (f) => f.minute, HOUR_OF_DAY: (f) => f.hour,
    HOUR_OF_AMPM: (f) => f.hour % 12, AMPM_OF_DAY: (f) => (f.hour < 12 ? 0 : 1), MINUTE_OF_DAY: (f) => f.hour * 60 + f.minute,
    SECOND_OF_DAY: (f) => (f.hour * 60 + f.minute) * 60 + f.second, DAY_OF_WEEK: (f) => f.dow, DAY_OF_MONTH: (f) => f.day,
    DAY_OF_YEAR: (f) => Math.round((RealDate.UTC(f.year, f.month - 1, f.day) - RealDate.UTC(f.year, 0, 1)) / MS_DAY) + 1,
    MONTH_OF_YEAR: (f) => f.month, YEAR: (f) => f.year
  };
  for (const [name, read] of Object.entries(FIELD_READERS)) ChronoField[name] = new ChronoField(name, read);

  class LocalTime {
    constructor (h, m, s, ms) { this._h = h; this._m = m; this._s = s || 0; this._ms = ms || 0; }
    static of (h, m = 0, s = 0, nano = 0) {
      if (!(h >= 0 && h < 24 && m >= 0 && m < 60 && s >= 0 && s < 60)) throw new Error(`Invalid time ${h}:${m}:${s}`);
      return new LocalTime(h, m, s, Math.floor(nano / 1e6));
    }
    static parse (text) {
      const m = /^(\d{1,2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?$/.exec(String(text).trim());
      if (!m) throw new Error(`Text '${text}' could not be parsed as a LocalTime`);
      return LocalTime.of(+m[1], +m[2], +(m[3] || 0), m[4] ? +(m[4] + '000000000').slice(0, 9) : 0);
    }
    static now () { return ZonedDateTime.now().toLocalTime(); }
    _ofDay () { return ((this._h * 60 + this._m) * 60 + this._s) * 1000 + this._ms; }
    hour () { return this._h; }
    minute () { return this._m; }
    second () { return this._s; }
    nano () { return this._ms * 1e6; }
    toSecondOfDay () { return Math.floor(this._ofDay() / 1000); }
    isBefore (o) { return this._ofDay() < o._ofDay(); }
    isAfter (o) { return this._ofDay() > o._ofDay(); }
    equals (o) { return o instanceof LocalTime && this._ofDay() === o._ofDay(); }
    compareTo (o) { return Math.sign(this._ofDay() - o._ofDay()); }
    plusHours (n) { return LocalTime._from(this._ofDay() + n * 3600000); }
    plusMinutes (n) { return LocalTime._from(this._ofDay() + n * 60000); }
    plusSeconds (n) { return LocalTime._from(this._ofDay() + n * 1000); }
    minusHours (n) { return this.plusHours(-n); }
    minusMinutes (n) { return this.plusMinutes(-n); }
    withHour (h) { return LocalTime.of(h, this._m, this._s, this._ms * 1e6); }
    withMinute (m) { return LocalTime.of(this._h, m, this._s, this._ms * 1e6); }
    static _from (ms) { ms = ((ms % MS_DAY) + MS_DAY) % MS_DAY; return new LocalTime(Math.floor(ms / 3600000), Math.floor(ms / 60000) % 60, Math.floor(ms / 1000) % 60, ms % 1000); }
    toString () { return timeText(this._h, this._m, this._s, this._ms); }
    format (f) { return f._format(fieldsOf(RealDate.UTC(1970, 0, 1) + this._ofDay()), 0, null); }
  }
  LocalTime.MIDNIGHT = new LocalTime(0, 0); LocalTime.NOON = new LocalTime(12, 0);
  LocalTime.MIN = LocalTime.MIDNIGHT; LocalTime.MAX = new LocalTime(23, 59, 59, 999);

  class LocalDate {
    constructor (y, m, d) { this._y = y; this._m = m; this._d = d; }
    static of (y, m, d) { return new LocalDate(y, m instanceof Month ? m.value() : m, d); }
    static parse (t) { const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(String(t)); if (!m) throw new Error(`Text '${t}' could not be parsed as a LocalDate`); return new LocalDate(+m[1], +m[2], +m[3]); }
    static now () { return ZonedDateTime.now().toLocalDate(); }
    _ms () { return RealDate.UTC(this._y, this._m - 1, this._d); }
    year () { return this._y; }
    monthValue () { return this._m; }
    month () { return Month.of(this._m); }
    dayOfMonth () { return this._d; }
    dayOfWeek () { return DayOfWeek.of(fieldsOf(this._ms()).dow); }
    dayOfYear () { return Math.round((this._ms() - RealDate.UTC(this._y, 0, 1)) / MS_DAY) + 1; }
    plusDays (n) { const f = fieldsOf(this._ms() + n * MS_DAY); return new LocalDate(f.year, f.month, f.day); }
    minusDays (n) { return this.plusDays(-n); }
    isBefore (o) { return this._ms() < o._ms(); }
    isAfter (o) { return this._ms() > o._ms(); }
    equals (o) { return o instanceof LocalDate && this._ms() === o._ms(); }
    atStartOfDay (zone) { return ZonedDateTime._ofLocal(this._ms(), zone ? zoneName(zone) : host.zone); }
    atTime (t) { return new LocalDateTime(this._ms() + t._ofDay()); }
    toString () { return `${pad(this._y, 4)}-${pad(this._m)}-${pad(this._d)}`; }
    format (f) { return f._format(fieldsOf(this._ms()), 0, null); }
  }

  class LocalDateTime {
    constructor (localMs) { this._l = localMs; }
    static of (y, mo, d, h = 0, mi = 0, s = 0) { return new LocalDateTime(RealDate.UTC(y, mo - 1, d, h, mi, s)); }
    static now () { return ZonedDateTime.now().toLocalDateTime(); }
    static parse (t) { const l = parseLocal(String(t)); if (l === null) throw new Error(`Text '${t}' could not be parsed as a LocalDateTime`); return new LocalDateTime(l); }
    atZone (zone) { return ZonedDateTime._ofLocal(this._l, zoneName(zone)); }
    toLocalDate () { const f = fieldsOf(this._l); return new LocalDate(f.year, f.month, f.day); }
    toLocalTime () { return LocalTime._from(this._l); }
    hour () { return fieldsOf(this._l).hour; }
    minute () { return fieldsOf(this._l).minute; }
    isBefore (o) { return this._l < o._l; }
    isAfter (o) { return this._l > o._l; }
    plusMinutes (n) { return new LocalDateTime(this._l + n * 60000); }
    plusHours (n) { return new LocalDateTime(this._l + n * 3600000); }
    plusDays (n) { return new LocalDateTime(this._l + n * MS_DAY); }
    toString () { const f = fieldsOf(this._l); return `${pad(f.year, 4)}-${pad(f.month)}-${pad(f.day)}T${timeText(f.hour, f.minute, f.second, f.ms)}`; }
    format (f) { return f._format(fieldsOf(this._l), 0, null); }
  }

  class ZoneId {
    constructor (id) { this._id = id; }
    static of (id) { return new ZoneId(id); }
    static systemDefault () { return new ZoneId(host.zone); }
    id () { return this._id; }
    toString () { return this._id; }
    equals (o) { return o instanceof ZoneId && o._id === this._id; }
  }
  ZoneId.UTC = new ZoneId('UTC');
  ZoneId.SYSTEM = new ZoneId(host.zone);
  const zoneName = (z) => (z instanceof ZoneId ? z._id : String(z));

  class Instant {
    constructor (ms) { this._e = ms; }
    static now () { return new Instant(host.now()); }
    static ofEpochMilli (ms) { return new Instant(ms); }
    static ofEpochSecond (s) { return new Instant(s * 1000); }
    static parse (t) { const z = parseZoned(String(t)); if (!z) throw new Error(`Text '${t}' could not be parsed as an Instant`); return new Instant(z._e); }
    toEpochMilli () { return this._e; }
    epochSecond () { return Math.floor(this._e / 1000); }
    isBefore (o) { return this._e < toEpoch(o); }
    isAfter (o) { return this._e > toEpoch(o); }
    plusMillis (n) { return new Instant(this._e + n); }
    plusSeconds (n) { return new Instant(this._e + n * 1000); }
    minusSeconds (n) { return new Instant(this._e - n * 1000); }
    plus (d) { return new Instant(this._e + d._ms); }
    minus (d) { return new Instant(this._e - d._ms); }
    atZone (z) { return new ZonedDateTime(this._e, zoneName(z)); }
    equals (o) { return o instanceof Instant && o._e === this._e; }
    toString () { const f = fieldsOf(this._e); return `${pad(f.year, 4)}-${pad(f.month)}-${pad(f.day)}T${pad(f.hour)}:${pad(f.minute)}:${pad(f.second)}${f.ms ? '.' + pad(f.ms, 3) : ''}Z`; }
  }

  class ZonedDateTime {
    constructor (epochMs, zone) { this._e = epochMs; this._zone = zone || host.zone; }
    static now (zone) { return new ZonedDateTime(host.now(), zone ? zoneName(zone) : host.zone); }
    static _ofLocal (localMs, zone, preferred) { return new ZonedDateTime(resolveLocal(localMs, zone, preferred), zone); }
    static of (...a) {
      if (a.length >= 7) return ZonedDateTime._ofLocal(RealDate.UTC(a[0], a[1] - 1, a[2], a[3], a[4], a[5], Math.floor((a[6] || 0) / 1e6)), zoneName(a[7] || host.zone));
      if (a[0] instanceof LocalDateTime) return a[0].atZone(a[1]);
      if (a[0] instanceof LocalDate) return ZonedDateTime._ofLocal(a[0]._ms() + a[1]._ofDay(), zoneName(a[2]));
      throw unsupported('time.ZonedDateTime.of with these arguments');
    }
    static ofInstant (i, z) { return new ZonedDateTime(toEpoch(i), zoneName(z)); }
    static parse (t) { const z = parseZoned(String(t)); if (!z) throw new Error(`Text '${t}' could not be parsed as a ZonedDateTime`); return z; }
    _offset () { return offsetAt(this._e, this._zone); }
    _local () { return this._e + this._offset(); }
    _f () { return fieldsOf(this._local()); }
    _withLocal (localMs) { return ZonedDateTime._ofLocal(localMs, this._zone, this._offset()); }
    year () { return this._f().year; }
    monthValue () { return this._f().month; }
    month () { return Month.of(this._f().month); }
    dayOfMonth () { return this._f().day; }
    dayOfYear () { const f = this._f(); return Math.round((RealDate.UTC(f.year, f.month - 1, f.day) - RealDate.UTC(f.year, 0, 1)) / MS_DAY) + 1; }
    dayOfWeek () { return DayOfWeek.of(this._f().dow); }
    hour () { return this._f().hour; }
    minute () { return this._f().minute; }
    second () { return this._f().second; }
    nano () { return this._f().ms * 1e6; }
    getHour () { return this.hour(); }
    getMinute () { return this.minute(); }
    get (field) {
      if (!(field instanceof ChronoField)) throw unsupported(`ZonedDateTime.get(${String(field)})`);
      return field._read(this._f());
    }
    getLong (field) { return this.get(field); }
    zone () { return new ZoneId(this._zone); }
    offset () { return { totalSeconds: () => this._offset() / 1000, toString: () => offsetText(this._offset()) }; }
    plusNanos (n) { return new ZonedDateTime(this._e + Math.floor(n / 1e6), this._zone); }
    plusSeconds (n) { return new ZonedDateTime(this._e + n * 1000, this._zone); }
    plusMinutes (n) { return new ZonedDateTime(this._e + n * 60000, this._zone); }
    plusHours (n) { return new ZonedDateTime(this._e + n * 3600000, this._zone); }
    plusDays (n) { return this._withLocal(this._local() + n * MS_DAY); }
    plusWeeks (n) { return this.plusDays(7 * n); }
    plusMonths (n) {
      const f = this._f(); const total = f.year * 12 + (f.month - 1) + n; const y = Math.floor(total / 12), m = total % 12;
      const last = new RealDate(RealDate.UTC(y, m + 1, 0)).getUTCDate();
      return this._withLocal(RealDate.UTC(y, m, Math.min(f.day, last), f.hour, f.minute, f.second, f.ms));
    }
    plusYears (n) { return this.plusMonths(12 * n); }
    minusSeconds (n) { return this.plusSeconds(-n); }
    minusMinutes (n) { return this.plusMinutes(-n); }
    minusHours (n) { return this.plusHours(-n); }
    minusDays (n) { return this.plusDays(-n); }
    minusWeeks (n) { return this.plusWeeks(-n); }
    minusMonths (n) { return this.plusMonths(-n); }
    minusYears (n) { return this.plusYears(-n); }
    plus (a, unit) {
      if (a instanceof Duration) return new ZonedDateTime(this._e + a._ms, this._zone);
      if (unit instanceof ChronoUnit) {
        if (unit._local === 'months') return this.plusMonths(a * unit._ms);
        if (unit._local) return this.plusDays(a * unit._ms / MS_DAY);
        if (unit._perMs) return new ZonedDateTime(this._e + Math.floor(a / unit._perMs), this._zone);
        return new ZonedDateTime(this._e + a * unit._ms, this._zone);
      }
      throw unsupported('time.ZonedDateTime.plus with this amount');
    }
    minus (a, unit) { return a instanceof Duration ? new ZonedDateTime(this._e - a._ms, this._zone) : this.plus(-a, unit); }
    _with (field, v) { const f = this._f(); f[field] = v; return this._withLocal(RealDate.UTC(f.year, f.month - 1, f.day, f.hour, f.minute, f.second, f.ms)); }
    withHour (h) { return this._with('hour', h); }
    withMinute (m) { return this._with('minute', m); }
    withSecond (s) { return this._with('second', s); }
    withNano (n) { return this._with('ms', Math.floor(n / 1e6)); }
    withDayOfMonth (d) { return this._with('day', d); }
    withMonth (m) { return this._with('month', m); }
    withYear (y) { return this._with('year', y); }
    with (adjuster) {
      if (adjuster instanceof LocalTime) { const f = this._f(); return this._withLocal(RealDate.UTC(f.year, f.month - 1, f.day) + adjuster._ofDay()); }
      if (adjuster instanceof LocalDate) { const t = this._local() - Math.floor(this._local() / MS_DAY) * MS_DAY; return this._withLocal(adjuster._ms() + t); }
      throw unsupported('time.ZonedDateTime.with(this adjuster)');
    }
    withZoneSameInstant (z) { return new ZonedDateTime(this._e, zoneName(z)); }
    withZoneSameLocal (z) { return ZonedDateTime._ofLocal(this._local(), zoneName(z)); }
    truncatedTo (unit) {
      if (unit._local === 'days') { const l = this._local(); return this._withLocal(l - (((l % MS_DAY) + MS_DAY) % MS_DAY)); }
      const l = this._local(); const step = unit._ms; return this._withLocal(l - (((l % step) + step) % step));
    }
    toLocalTime () { return LocalTime._from(this._local()); }
    toLocalDate () { const f = this._f(); return new LocalDate(f.year, f.month, f.day); }
    toLocalDateTime () { return new LocalDateTime(this._local()); }
    toInstant () { return new Instant(this._e); }
    toEpochSecond () { return Math.floor(this._e / 1000); }
    isBefore (o) { return this._e < toEpoch(o); }
    isAfter (o) { return this._e > toEpoch(o); }
    isEqual (o) { return this._e === toEpoch(o); }
    equals (o) { return o instanceof ZonedDateTime && o._e === this._e && o._zone === this._zone; }
    compareTo (o) { return Math.sign(this._e - toEpoch(o)); }
    until (o, unit) { return unit.between(this, o); }
    format (f) { return f._format(this._f(), this._offset(), this._zone); }
    toString () { const f = this._f(); return `${pad(f.year, 4)}-${pad(f.month)}-${pad(f.day)}T${timeText(f.hour, f.minute, f.second, f.ms)}${offsetText(this._offset())}[${this._zone}]`; }
    toJSON () { return this.toString(); }
    /** openHAB's DateTimeType text (what a DateTime Item takes). */
    toOpenHabString () { const f = this._f(); const o = this._offset() / 60000; return `${pad(f.year, 4)}-${pad(f.month)}-${pad(f.day)}T${pad(f.hour)}:${pad(f.minute)}:${pad(f.second)}.${pad(f.ms, 3)}${o < 0 ? '-' : '+'}${pad(Math.floor(Math.abs(o) / 60))}${pad(Math.abs(o) % 60)}`; }
    // openhab-js's additions
    toToday () { const n = ZonedDateTime.now(this._zone); const f = n._f(); return this._withLocal(RealDate.UTC(f.year, f.month - 1, f.day) + this.toLocalTime()._ofDay()); }
    getMillisFromNow () { return this._e - host.now(); }
    isBeforeTime (t) { return this.toLocalTime().isBefore(toZDT(t).toLocalTime()); }
    isAfterTime (t) { return this.toLocalTime().isAfter(toZDT(t).toLocalTime()); }
    isBeforeDate (t) { return this.toLocalDate().isBefore(toZDT(t).toLocalDate()); }
    isAfterDate (t) { return this.toLocalDate().isAfter(toZDT(t).toLocalDate()); }
    isBeforeDateTime (t) { return this.isBefore(toZDT(t)); }
    isAfterDateTime (t) { return this.isAfter(toZDT(t)); }
    isBetweenTimes (start, end) {
      const s = toZDT(start).toLocalTime()._ofDay(), e = toZDT(end).toLocalTime()._ofDay(), t = this.toLocalTime()._ofDay();
      return e < s ? (t >= s || t < e) : (t >= s && t < e);
    }
    isBetweenDates (start, end) { const t = this.toLocalDate()._ms(); return t >= toZDT(start).toLocalDate()._ms() && t < toZDT(end).toLocalDate()._ms(); }
    isBetweenDateTimes (start, end) { return this._e >= toZDT(start)._e && this._e < toZDT(end)._e; }
    isClose (other, maxDur) { return Math.abs(this._e - toZDT(other)._e) <= maxDur._ms; }
  }

  class DateTimeFormatter {
    constructor (pattern) { this._p = pattern; }
    static ofPattern (p) { return new DateTimeFormatter(p); }
    _format (f, offset, zone) {
      const out = []; const p = this._p; let i = 0;
      while (i < p.length) {
        const c = p[i];
        if (c === "'") { const j = p.indexOf("'", i + 1); out.push(j < 0 ? p.slice(i + 1) : (j === i + 1 ? "'" : p.slice(i + 1, j))); i = j < 0 ? p.length : j + 1; continue; }
        if (!/[A-Za-z]/.test(c)) { out.push(c); i++; continue; }
        let n = 1; while (p[i + n] === c) n++;
        const monthName = MONTH_NAMES[f.month - 1], dayName = DOW_NAMES[f.dow - 1];
        const cap = (s) => s[0] + s.slice(1).toLowerCase();
        switch (c) {
          case 'y': case 'u': out.push(n === 2 ? pad(f.year % 100) : pad(f.year, n)); break;
          case 'M': out.push(n >= 4 ? cap(monthName) : n === 3 ? cap(monthName).slice(0, 3) : pad(f.month, n)); break;
          case 'd': out.push(pad(f.day, n)); break;
          case 'H': out.push(pad(f.hour, n)); break;
          case 'h': out.push(pad(f.hour % 12 === 0 ? 12 : f.hour % 12, n)); break;
          case 'm': out.push(pad(f.minute, n)); break;
          case 's': out.push(pad(f.second, n)); break;
          case 'S': out.push(pad(f.ms, 3).slice(0, n).padEnd(n, '0')); break;
          case 'a': out.push(f.hour < 12 ? 'AM' : 'PM'); break;
          case 'E': out.push(n >= 4 ? cap(dayName) : cap(dayName).slice(0, 3)); break;
          case 'e': out.push(String(f.dow)); break;
          case 'X': case 'x': case 'Z': { const t = offsetText(offset); out.push(c === 'X' ? t : t === 'Z' ? '+00:00' : t); break; }
          case 'V': out.push(zone || ''); break;
          default: throw unsupported(`the DateTimeFormatter pattern letter '${c}'`);
        }
        i += n;
      }
      return out.join('');
    }
    format (t) { return t.format(this); }
  }
  DateTimeFormatter.ISO_LOCAL_TIME = { format: (t) => (t instanceof LocalTime ? t : t.toLocalTime()).toString() };
  DateTimeFormatter.ISO_LOCAL_DATE = { format: (t) => (t instanceof LocalDate ? t : t.toLocalDate()).toString() };

  function parseLocal (text) {
    const m = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{1,2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?)?$/.exec(text);
    if (!m) return null;
    return RealDate.UTC(+m[1], +m[2] - 1, +m[3], +(m[4] || 0), +(m[5] || 0), +(m[6] || 0), m[7] ? +(m[7] + '00').slice(0, 3) : 0);
  }
  function parseZoned (text) {
    const m = /^(\d{4}-\d{2}-\d{2}[T ]\d{1,2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?)(Z|[+-]\d{2}:?\d{2})?(?:\[([^\]]+)\])?$/.exec(text.trim());
    if (!m) { const l = parseLocal(text.trim()); return l === null ? null : ZonedDateTime._ofLocal(l, host.zone); }
    const local = parseLocal(m[1].replace(' ', 'T'));
    if (!m[2]) return ZonedDateTime._ofLocal(local, m[3] || host.zone);
    let offset = 0;
    if (m[2] !== 'Z') { const d = m[2].replace(':', ''); offset = (d[0] === '-' ? -1 : 1) * (+d.slice(1, 3) * 60 + +d.slice(3, 5)) * 60000; }
    return new ZonedDateTime(local - offset, m[3] || host.zone);
  }
  function toEpoch (t) {
    if (t instanceof ZonedDateTime || t instanceof Instant) return t._e;
    return toZDT(t)._e;
  }
  function todayAt (ms) { const n = ZonedDateTime.now(); const f = n._f(); return ZonedDateTime._ofLocal(RealDate.UTC(f.year, f.month - 1, f.day) + ms, host.zone); }

  /** openhab-js's time.toZDT: the inputs real files pass. */
  function toZDT (when) {
    if (when === undefined || when === null) return ZonedDateTime.now();
    if (when instanceof ZonedDateTime) return when;
    if (when instanceof Instant) return new ZonedDateTime(when._e, host.zone);
    if (when instanceof RealDate) return new ZonedDateTime(when.getTime(), host.zone);
    if (typeof when === 'number' || typeof when === 'bigint') return ZonedDateTime.now().plusNanos(Number(when) * 1e6);
    if (when instanceof Duration) return new ZonedDateTime(host.now() + when._ms, host.zone);
    if (when instanceof LocalTime) return todayAt(when._ofDay());
    if (when instanceof LocalDate) return when.atStartOfDay();
    if (when instanceof LocalDateTime) return when.atZone(host.zone);
    if (when instanceof QuantityType) return toZDT(Q(when.toString()));
    if (when instanceof DecimalType) return toZDT(when.doubleValue());
    if (when instanceof DateTimeType) return when.getZonedDateTime();
    if (when instanceof Quantity) {
      const ms = when.toUnit('ms');
      if (ms === null) throw new Error(`time.toZDT: ${when} is not a time quantity`);
      return new ZonedDateTime(host.now() + ms.float, host.zone);
    }
    if (when instanceof Item) {
      if (when.type === 'DateTime') return toZDT(when.state);
      if (when.numericState !== null) return toZDT(when.type.startsWith('Number:') ? when.quantityState : when.numericState);
      throw new Error(`time.toZDT: Item ${when.name} holds ${when.state}, not a date-time or a number`);
    }
    if (typeof when === 'string') {
      const text = when.trim();
      if (/^[-+]?P/i.test(text)) return new ZonedDateTime(host.now() + Duration.parse(text)._ms, host.zone);
      const t24 = /^(\d{1,2}):(\d{2})(?::(\d{2}))?$/.exec(text);
      if (t24) return todayAt(LocalTime.of(+t24[1], +t24[2], +(t24[3] || 0))._ofDay());
      const t12 = /^(\d{1,2})(?::(\d{2}))?(?::(\d{2}))?\s*([AaPp])\.?\s*[Mm]\.?$/.exec(text);
      if (t12) { const h = (+t12[1] % 12) + (/[Pp]/.test(t12[4]) ? 12 : 0); return todayAt(LocalTime.of(h, +(t12[2] || 0), +(t12[3] || 0))._ofDay()); }
      const zoned = parseZoned(text.replace(/([+-]\d{2})(\d{2})$/, '$1:$2'));
      if (zoned) return zoned;
      if (/^-?\d+(\.\d+)?$/.test(text)) return toZDT(Number(text));
    }
    throw new Error(`time.toZDT: "${when}" is not a date, time, duration or number it can convert`);
  }

  const time = {
    ZonedDateTime, LocalTime, LocalDate, LocalDateTime, Instant, Duration, ChronoUnit, ChronoField, DateTimeFormatter, ZoneId, DayOfWeek, Month,
    toZDT,
    toInstant: (w) => toZDT(w).toInstant(),
    javaZDTToJsZDT: (z) => z,
    javaInstantToJsInstant: (i) => i,
    Period: { ofDays: (n) => Duration.ofDays(n) }
  };
  // js-joda's other exports: refused by name where a script reaches them (the twin's time is a js-joda subset).
  for (const name of ['Clock', 'MonthDay', 'OffsetDateTime', 'OffsetTime', 'Year', 'YearMonth', 'ZoneOffset', 'ZoneRegion', 'ZoneOffsetTransition',
    'ZoneRules', 'ZoneRulesProvider', 'IsoFields', 'TemporalAdjusters', 'TemporalQueries', 'ValueRange', 'DateTimeFormatterBuilder', 'DecimalStyle',
    'ResolverStyle', 'SignStyle', 'TextStyle', 'IsoChronology', 'nativeJs', 'convert', 'use']) {
    Object.defineProperty(time, name, { get () { throw unsupported(`time.${name}`, 'the twin\'s time has ZonedDateTime, LocalTime, LocalDate, LocalDateTime, Instant, Duration, ChronoUnit, ChronoField, DateTimeFormatter, ZoneId, DayOfWeek, Month'); }, enumerable: false });
  }
  // The instance members of each js-joda class the twin has, with its bases' (js-joda's typings, js-joda.d.ts).
  const JODA_MEMBERS = {
    ZonedDateTime: 'compareTo dayOfMonth dayOfWeek dayOfYear equals format get getLong hashCode hour isAfter isBefore isEqual isSupported ' +
      'minus minusDays minusHours minusMinutes minusMonths minusNanos minusSeconds minusWeeks minusYears minute month ' +
      'monthValue nano offset plus plusDays plusHours plusMinutes plusMonths plusNanos plusSeconds plusWeeks plusYears query ' +
      'range second toEpochSecond toInstant toJSON toLocalDate toLocalDateTime toLocalTime toOffsetDateTime toString ' +
      'truncatedTo until with withDayOfMonth withDayOfYear withEarlierOffsetAtOverlap withFixedOffsetZone withHour ' +
      'withLaterOffsetAtOverlap withMinute withMonth withNano withSecond withYear withZoneSameInstant withZoneSameLocal year ' +
      'zone',
    LocalTime: 'adjustInto atDate atOffset compareTo equals format get getLong hashCode hour isAfter isBefore isSupported minus ' +
      'minusHours minusMinutes minusNanos minusSeconds minute nano plus plusHours plusMinutes plusNanos plusSeconds query range ' +
      'second toJSON toNanoOfDay toSecondOfDay toString truncatedTo until with withHour withMinute withNano withSecond',
    LocalDate: 'adjustInto atStartOfDay atTime chronology compareTo dayOfMonth dayOfWeek dayOfYear equals format get getLong hashCode ' +
      'isAfter isBefore isEqual isLeapYear isSupported isoWeekOfWeekyear isoWeekyear lengthOfMonth lengthOfYear minus minusDays ' +
      'minusMonths minusWeeks minusYears month monthValue plus plusDays plusMonths plusWeeks plusYears query range toEpochDay ' +
      'toJSON toString until with withDayOfMonth withDayOfYear withMonth withYear year',
    LocalDateTime: 'adjustInto atOffset atZone chronology compareTo dayOfMonth dayOfWeek dayOfYear equals format get getLong hashCode hour ' +
      'isAfter isBefore isEqual isSupported minus minusDays minusHours minusMinutes minusMonths minusNanos minusSeconds ' +
      'minusWeeks minusYears minute month monthValue nano plus plusDays plusHours plusMinutes plusMonths plusNanos plusSeconds ' +
      'plusWeeks plusYears query range second toEpochSecond toInstant toJSON toLocalDate toLocalTime toString truncatedTo until ' +
      'with withDayOfMonth withDayOfYear withHour withMinute withMonth withNano withSecond withYear year',
    Instant: 'adjustInto atOffset atZone compareTo epochSecond equals get getLong hashCode isAfter isBefore isSupported minus ' +
      'minusMicros minusMillis minusNanos minusSeconds nano plus plusMicros plusMillis plusNanos plusSeconds query range ' +
      'toEpochMilli toJSON toString truncatedTo until with',
    Duration: 'abs addTo compareTo dividedBy equals get isNegative isZero minus minusDays minusHours minusMillis minusMinutes ' +
      'minusNanos minusSeconds multipliedBy nano negated plus plusDays plusDuration plusHours plusMillis plusMinutes plusNanos ' +
      'plusSeconds plusSecondsNanos seconds subtractFrom toDays toHours toHoursPart toJSON toMillis toMillisPart toMinutes ' +
      'toMinutesPart toNanos toSecondsPart toString units withNanos withSeconds',
    ChronoUnit: 'addTo between compareTo duration isDateBased isDurationEstimated isSupportedBy isTimeBased toString',
    ChronoField: 'adjustInto baseUnit checkValidIntValue checkValidValue displayName equals getFrom isDateBased isSupportedBy isTimeBased ' +
      'name range rangeRefinedBy rangeUnit toString',
    DateTimeFormatter: 'chronology decimalStyle format parse parseUnresolved toString withChronology withResolverStyle',
    ZoneId: 'equals hashCode id normalized rules toJSON toString',
    DayOfWeek: 'adjustInto compareTo equals get getLong isSupported minus name ordinal plus query range toJSON toString value',
    Month: 'adjustInto compareTo equals firstDayOfYear firstMonthOfQuarter get getLong isSupported length maxLength minLength minus ' +
      'name ordinal plus query range toJSON toString value'
  };
  /**
   * A prototype at the end of a js-joda class's chain: a js-joda member the twin's class does not have is a located
   * rules.jsUnsupported naming it, not undefined (js-joda's classes have far more members than real rules use); a name
   * that js-joda's class does not have either is undefined, as it is on GraalJS (`zdt.state || fallback`).
   */
  function refusingPrototype (label, members) {
    const known = new Set(members.split(' '));
    return new Proxy(Object.prototype, {
      get (target, prop, receiver) {
        if (typeof prop === 'symbol' || prop in target || prop === 'toJSON' || !known.has(prop)) return Reflect.get(target, prop, receiver);
        throw unsupported(`${label}.${prop}`, 'a js-joda member the twin\'s time does not have');
      }
    });
  }
  for (const [label, cls] of [['ZonedDateTime', ZonedDateTime], ['LocalTime', LocalTime], ['LocalDate', LocalDate], ['LocalDateTime', LocalDateTime],
    ['Instant', Instant], ['Duration', Duration], ['ChronoUnit', ChronoUnit], ['ChronoField', ChronoField], ['DateTimeFormatter', DateTimeFormatter],
    ['ZoneId', ZoneId], ['DayOfWeek', DayOfWeek], ['Month', Month]]) {
    Object.setPrototypeOf(cls.prototype, refusingPrototype(`time.${label}`, JODA_MEMBERS[label]));
  }

  // ------------------------------------------------------------ Quantity
  const UNITS = {
    // dimension, factor to the dimension's base
    W: ['Power', 1], kW: ['Power', 1000], MW: ['Power', 1e6], mW: ['Power', 0.001],
    Wh: ['Energy', 1], kWh: ['Energy', 1000], MWh: ['Energy', 1e6], J: ['Energy', 1 / 3600],
    m: ['Length', 1], km: ['Length', 1000], cm: ['Length', 0.01], mm: ['Length', 0.001],
    ms: ['Time', 1], s: ['Time', 1000], min: ['Time', 60000], h: ['Time', 3600000], d: ['Time', MS_DAY],
    '%': ['Dimensionless', 0.01], one: ['Dimensionless', 1],
    Pa: ['Pressure', 1], hPa: ['Pressure', 100], kPa: ['Pressure', 1000], bar: ['Pressure', 1e5], mbar: ['Pressure', 100],
    V: ['ElectricPotential', 1], mV: ['ElectricPotential', 0.001], A: ['ElectricCurrent', 1], mA: ['ElectricCurrent', 0.001],
    lx: ['Illuminance', 1], 'l': ['Volume', 0.001], 'm³': ['Volume', 1],
    'km/h': ['Speed', 1 / 3.6], 'm/s': ['Speed', 1]
  };
  const TEMPS = { '°C': [1, 273.15], '°F': [5 / 9, 255.3722222222222], K: [1, 0] };
  // Java's QuantityType computes in BigDecimal: 20.5 °C is 68.9 °F there, not 68.89999999999999 as in doubles.
  // 15 significant digits hide the doubles' rounding in what scripts print and compare.
  const tidy = (x) => (Number.isFinite(x) ? Number(x.toPrecision(15)) : x);
  class Quantity {
    constructor (value, unit) { this._v = tidy(value); this._u = unit; }
    get float () { return this._v; }
    get int () { return Math.trunc(this._v); }
    get unit () { return this._u; }
    get symbol () { return this._u; }
    get dimension () { return TEMPS[this._u] ? 'Temperature' : (UNITS[this._u] || ['Dimensionless'])[0]; }
    toUnit (u) {
      if (u === this._u) return this;
      if (TEMPS[this._u] && TEMPS[u]) { const k = this._v * TEMPS[this._u][0] + TEMPS[this._u][1]; return new Quantity((k - TEMPS[u][1]) / TEMPS[u][0], u); }
      const a = UNITS[this._u], b = UNITS[u];
      if (!a || !b || a[0] !== b[0]) return null;
      return new Quantity(this._v * a[1] / b[1], u);
    }
    _other (o) {
      const q = o instanceof Quantity ? o : (typeof o === 'number' ? new Quantity(o, this._u) : Q(o));
      const c = q.toUnit(this._u);
      if (c === null) throw new Error(`${q} cannot be compared or combined with ${this}`);
      return c._v;
    }
    add (o) { return new Quantity(this._v + this._other(o), this._u); }
    subtract (o) { return new Quantity(this._v - this._other(o), this._u); }
    multiply (n) { if (n instanceof Quantity) throw unsupported('multiplying two quantities'); return new Quantity(this._v * Number(n), this._u); }
    divide (n) { if (n instanceof Quantity) throw unsupported('dividing two quantities'); return new Quantity(this._v / Number(n), this._u); }
    equal (o) { return this._v === this._other(o); }
    greaterThan (o) { return this._v > this._other(o); }
    greaterThanOrEqual (o) { return this._v >= this._other(o); }
    lessThan (o) { return this._v < this._other(o); }
    lessThanOrEqual (o) { return this._v <= this._other(o); }
    toString () { return `${this._v} ${this._u}`; }
  }
  function Q (value) {
    if (value instanceof Quantity) return value;
    if (value instanceof Item) { const q = value.quantityState; if (q === null) throw new Error(`Item ${value.name} holds no quantity (${value.state})`); return q; }
    const m = /^\s*([-+]?\d*\.?\d+(?:[eE][-+]?\d+)?)\s*(\S.*?)\s*$/.exec(String(value));
    if (!m) throw new Error(`"${value}" is not a quantity such as "21.5 °C"`);
    return new Quantity(Number(m[1]), m[2]);
  }

  // ------------------------------------------------------------ items
  // An Item's fields other than its state are fixed for the session: read once (as JSON, so the object is of this
  // realm) and kept; the state, a string, is read from the host on every access.
  const itemFields = new Map();
  function itemData (name) {
    const state = host.state(name);
    if (state === undefined) return null;
    let d = itemFields.get(name);
    if (d === undefined) { d = JSON.parse(host.item(name)); itemFields.set(name, d); }
    d.state = state;
    return d;
  }
  /** An Item state as `numericState` reads it for an Item of `type`. */
  function numericOf (type, s) {
    if (s === 'NULL' || s === 'UNDEF') return null;
    if (type === 'Color') return parseFloat(s.split(',')[2]);
    if (!/^(Group:)?(Number|Dimmer|Rollershutter)/.test(type)) return null;
    const n = parseFloat(s); return Number.isNaN(n) ? null : n;
  }
  /** An Item state as `quantityState` reads it for an Item of `type`. */
  function quantityOf (type, s) {
    if (!/^(Group:)?Number:/.test(type)) return null;
    try { return Q(s); } catch (e) { return null; }
  }
  const TOGGLES = { ON: 'OFF', OFF: 'ON', OPEN: 'CLOSED', CLOSED: 'OPEN', PLAY: 'PAUSE', PAUSE: 'PLAY' };
  function valueText (v) {
    if (v === null) return 'NULL';
    if (v === undefined) return 'UNDEF';
    if (v instanceof ZonedDateTime) return v.toOpenHabString();
    if (v instanceof Instant) return new ZonedDateTime(v._e, host.zone).toOpenHabString();
    if (typeof v === 'boolean') return v ? 'ON' : 'OFF';
    return show(v);
  }
  // ------------------------------------------------------------ persistence (asked of the twin's store)
  class PersistedState {
    constructor (state, type) { this.state = state; this._type = type; }
    get numericState () { const n = parseFloat(this.state); return Number.isNaN(n) ? null : n; }
    get quantityState () { try { return /^[-+]?\d*\.?\d+(e[-+]?\d+)?\s+\S/i.test(this.state) ? Q(this.state) : null; } catch (e) { return null; } }
    /** openHAB's State object, read as the Item's type reads it (an average of a Switch is a DecimalType). */
    get rawState () { return stateObject(this._type, this.state); }
    toString () { return this.state; }
  }
  class PersistedItem extends PersistedState {
    constructor (state, at, type) { super(state, type); this._at = at; }
    get timestamp () { return new ZonedDateTime(this._at, host.zone); }
    get instant () { return new Instant(this._at); }
  }
  class ItemPersistence {
    constructor (name) { this._n = name; }
    _type () { const d = itemData(this._n); return d === null ? 'String' : d.type; }
    _ask (method, args) {
      const a = JSON.parse(host.ask(JSON.stringify({ q: 'persistence', item: this._n, method, args })));
      if (a.error) { const e = new Error(a.error); e.code = a.code || 'rules.jsNotPersisted'; throw e; }
      return a;
    }
    _range (kind, which, a, b) {
      const begin = which === 'Until' ? null : toZDT(a)._e;
      const end = which === 'Since' ? null : toZDT(which === 'Until' ? a : b)._e;
      return this._ask(kind, [begin, end]);
    }
    persistedState (when) { const a = this._ask('persistedState', [toZDT(when)._e]); return a.state === null ? null : new PersistedItem(a.state, a.at, this._type()); }
    previousState (skipEqual = false) { const a = this._ask('previousState', [!!skipEqual]); return a.state === null ? null : new PersistedItem(a.state, a.at, this._type()); }
    lastUpdate () { const a = this._ask('lastUpdate', []); return a.at === null ? null : new ZonedDateTime(a.at, host.zone); }
    lastChange () { const a = this._ask('lastChange', []); return a.at === null ? null : new ZonedDateTime(a.at, host.zone); }
  }
  for (const which of ['Since', 'Until', 'Between']) {
    for (const kind of ['average', 'sum', 'delta']) {
      ItemPersistence.prototype[kind + which] = function (a, b) { const r = this._range(kind, which, a, b); return r.state === null ? null : new PersistedState(r.state, this._type()); };
    }
    for (const kind of ['maximum', 'minimum']) {
      ItemPersistence.prototype[kind + which] = function (a, b) { const r = this._range(kind, which, a, b); return r.state === null ? null : new PersistedItem(r.state, r.at, this._type()); };
    }
    for (const kind of ['count', 'countStateChanges']) {
      ItemPersistence.prototype[kind + which] = function (a, b) { return this._range(kind, which, a, b).number; };
    }
    for (const kind of ['changed', 'updated']) {
      ItemPersistence.prototype[kind + which] = function (a, b) { return this._range(kind, which, a, b).bool; };
    }
    // An array of PersistedItem, oldest first (null where openHAB refuses the interval), as openhab-js converts the Iterable.
    ItemPersistence.prototype['getAllStates' + which] = function (a, b) {
      const r = this._range('getAllStates', which, a, b);
      return r.states === null ? null : r.states.map(([state, at]) => new PersistedItem(state, at, this._type()));
    };
  }

  /** An Item's persistence; a method the twin does not answer is a located rules.jsUnsupported. */
  function persistenceOf (name) {
    return new Proxy(new ItemPersistence(name), {
      get (target, prop) {
        if (typeof prop === 'symbol' || prop in target || prop === 'then' || prop === 'toJSON') return target[prop];
        throw unsupported(`Item.persistence.${String(prop)}`);
      }
    });
  }

  class Item {
    constructor (name) { this._name = name; }
    get _d () { const d = itemData(this._name); if (!d) throw new Error(`Item ${this._name} no longer exists`); return d; }
    get name () { return this._name; }
    get label () { return this._d.label ?? null; }
    get type () { return this._d.type; }
    get groupType () { return null; }
    get category () { return null; }
    get tags () { return [...this._d.tags]; }
    get groupNames () { return [...this._d.groups]; }
    get members () { return this._d.members.map((n) => new Item(n)); }
    get descendents () {
      const out = []; const seen = new Set();
      const walk = (names) => { for (const n of names) { if (seen.has(n)) continue; seen.add(n); const d = itemData(n); if (!d) continue; if (d.type === 'Group' || d.type.startsWith('Group:')) walk(d.members); else out.push(new Item(n)); } };
      walk(this._d.members);
      return out;
    }
    get state () { return this._d.state; }
    /** openHAB's State object of the Item's type (OnOffType.ON, a DecimalType, a QuantityType, …), kept until the state changes. */
    get rawState () {
      const d = this._d; const s = d.state;
      if (d._rawOf !== s) { d._rawOf = s; d._raw = stateObject(d.type, s); }
      return d._raw;
    }
    get isInitialized () { const s = this.state; return s !== 'NULL' && s !== 'UNDEF'; }
    get isUninitialized () { return !this.isInitialized; }
    // A state is read far more often than it changes: the number and the quantity read from it are kept with the
    // state they were read from (on the Item's kept fields) and read again only when it changed. A Quantity never
    // changes once made, so one is shared by the reads of one state, as `Q` shares the one it is given.
    get numericState () {
      const d = this._d; const s = d.state;
      if (d._numericOf !== s) { d._numericOf = s; d._numeric = numericOf(d.type, s); }
      return d._numeric;
    }
    get quantityState () {
      const d = this._d; const s = d.state;
      if (d._quantityOf !== s) { d._quantityOf = s; d._quantity = quantityOf(d.type, s); }
      return d._quantity;
    }
    get boolState () {
      const d = this._d; const s = d.state; const t = d.type.replace(/^Group:/, '');
      if (s === 'NULL' || s === 'UNDEF') return null;
      if (t === 'Switch') return s === 'ON';
      if (t === 'Contact') return s === 'OPEN';
      if (t === 'Player') return s === 'PLAY';
      if (t === 'Color') return parseFloat(s.split(',')[2]) > 0;
      if (t === 'Dimmer' || t === 'Rollershutter' || t.startsWith('Number')) return parseFloat(s) !== 0;
      return null;
    }
    _askItem (field) {
      const a = JSON.parse(host.ask(JSON.stringify({ q: 'item', item: this._name, field })));
      if (a.error) { const e = new Error(a.error); e.code = a.code || 'rules.jsRuntime'; throw e; }
      return a;
    }
    /** The state before the last change, from the twin's Item (`null` before any change). */
    get previousState () { return this._askItem('previousState').state; }
    get previousNumericState () { const s = this.previousState; const n = s === null ? NaN : parseFloat(s); return Number.isNaN(n) ? null : n; }
    get previousQuantityState () { const s = this.previousState; if (s === null || !/^(Group:)?Number:/.test(this.type)) return null; try { return Q(s); } catch (e) { return null; } }
    get lastStateUpdateTimestamp () { const a = this._askItem('lastStateUpdate'); return a.at === null ? null : new ZonedDateTime(a.at, host.zone); }
    get lastStateUpdateInstant () { const a = this._askItem('lastStateUpdate'); return a.at === null ? null : new Instant(a.at); }
    get lastStateChangeTimestamp () { const a = this._askItem('lastStateChange'); return a.at === null ? null : new ZonedDateTime(a.at, host.zone); }
    get lastStateChangeInstant () { const a = this._askItem('lastStateChange'); return a.at === null ? null : new Instant(a.at); }
    get persistence () { return persistenceOf(this._name); }
    get history () { return persistenceOf(this._name); }
    get semantics () { throw unsupported('Item.semantics'); }
    get rawItem () { throw unsupported('Item.rawItem', 'the twin has no Java Item; use the Item\'s members'); }
    /** The state before the last change as openHAB's State object (`null` before any change). */
    get previousRawState () { const s = this.previousState; return s === null ? null : stateObject(this.type, s); }
    getMetadata (namespace) {
      const all = this._askItem('metadata').metadata || {};
      if (namespace === undefined) return all;
      return all[namespace] === undefined ? null : all[namespace];
    }
    replaceMetadata () { throw unsupported('Item.replaceMetadata'); }
    removeMetadata () { throw unsupported('Item.removeMetadata'); }
    addGroups () { throw unsupported('Item.addGroups'); }
    removeGroups () { throw unsupported('Item.removeGroups'); }
    addTags () { throw unsupported('Item.addTags'); }
    removeTags () { throw unsupported('Item.removeTags'); }
    sendCommand (value, expire, onExpire) {
      emit({ k: 'cmd', item: this._name, value: valueText(value) });
      if (expire !== undefined) {
        const back = onExpire === undefined ? this.state : onExpire;
        const name = this._name;
        setTimeout(() => emit({ k: 'cmd', item: name, value: valueText(back) }), expire instanceof Duration ? expire._ms : Number(expire));
      }
    }
    sendCommandIfDifferent (value) {
      if (value instanceof QuantityType) value = Q(value.toString()); else if (value instanceof DecimalType && !(value instanceof HSBType)) value = value.doubleValue();
      const text = valueText(value); const cur = this.state;
      let same = text === cur;
      if (!same && value instanceof Quantity) { const q = this.quantityState; same = q !== null && q.toUnit(value.unit) !== null && q.equal(value); }
      if (!same && (typeof value === 'number' || /^[-+]?\d*\.?\d+$/.test(text))) { const n = this.numericState; same = n !== null && n === Number(text); }
      if (same) return false;
      this.sendCommand(value); return true;
    }
    _compareSend (value, greater) {
      if (value instanceof QuantityType) value = Q(value.toString()); else if (value instanceof DecimalType && !(value instanceof HSBType)) value = value.doubleValue();
      const cur = value instanceof Quantity ? this.quantityState : this.numericState;
      if (cur === null) { this.sendCommand(value); return true; }
      const differs = value instanceof Quantity ? (greater ? value.greaterThan(cur) : value.lessThan(cur)) : (greater ? Number(value) > cur : Number(value) < cur);
      if (differs) this.sendCommand(value);
      return differs;
    }
    sendIncreaseCommand (value) { return this._compareSend(value, true); }
    sendDecreaseCommand (value) { return this._compareSend(value, false); }
    getToggleState () {
      const s = this.state; const t = this.type.replace(/^Group:/, '');
      if (TOGGLES[s]) return TOGGLES[s];
      if (t === 'Contact') return 'OPEN';
      if (t === 'Player') return 'PLAY';
      if (t === 'Switch' || t === 'Dimmer' || t === 'Color') return 'ON';
      throw new Error(`Toggle not supported for items of type ${this.type}`);
    }
    sendToggleCommand () { if (this.type === 'Contact') throw new Error('Cannot send a toggle command to a Contact Item'); this.sendCommand(this.getToggleState()); }
    postToggleUpdate () { this.postUpdate(this.getToggleState()); }
    postUpdate (value) { emit({ k: 'upd', item: this._name, value: valueText(value) }); }
    toString () { return `${this._name} (Type=${this.type}, State=${this.state}, Label=${this.label}, Category=null, Tags=[${this.tags.join(', ')}], Groups=[${this.groupNames.join(', ')}])`; }
  }

  function getItem (name, nullIfMissing = false) {
    const n = name instanceof Item ? name.name : String(name);
    if (host.state(n) !== undefined) return new Item(n);
    if (nullIfMissing) return null;
    const e = new Error(`Item '${n}' could not be found in the item registry`);
    e.name = 'ItemNotFoundException';
    throw e;
  }
  const names = () => host.itemNames().split('\n').filter((n) => n.length > 0);
  const itemsApi = {
    getItem,
    getItems: () => names().map((n) => new Item(n)),
    getItemsByTag: (...tags) => names().filter((n) => { const t = itemData(n).tags; return tags.every((x) => t.includes(x)); }).map((n) => new Item(n)),
    existsItem: (n) => host.state(String(n)) !== undefined,
    safeItemName: (s) => String(s).replace(/["']/g, '').replace(/[^a-zA-Z0-9]/g, '_'),
    addItem: () => { throw unsupported('items.addItem', 'declare the Item in the scenario\'s "items" or an .items file'); },
    replaceItem: () => { throw unsupported('items.replaceItem'); },
    removeItem: () => { throw unsupported('items.removeItem'); },
    metadata: {
      // openhab-js items.metadata: getMetadata(itemOrName, namespace) → {value, configuration} or null.
      getMetadata: (item, namespace) => {
        const n = item instanceof Item ? item.name : String(item);
        getItem(n);
        return new Item(n).getMetadata(namespace === undefined ? undefined : String(namespace));
      },
      replaceMetadata: () => { throw unsupported('items.metadata.replaceMetadata', 'the twin\'s Item metadata comes from the scenario and is read-only'); },
      removeMetadata: () => { throw unsupported('items.metadata.removeMetadata', 'the twin\'s Item metadata comes from the scenario and is read-only'); },
      addMetadata: () => { throw unsupported('items.metadata.addMetadata', 'the twin\'s Item metadata comes from the scenario and is read-only'); },
      itemChannelLink: new Proxy({}, { get: (_, p) => { throw unsupported(`items.metadata.itemChannelLink.${String(p)}`); } })
    },
    itemChannelLink: new Proxy({}, { get: (_, p) => { throw unsupported(`items.itemChannelLink.${String(p)}`); } }),
    // openhab-js's classes, exported as it exports them.
    ItemPersistence,
    PersistedState,
    PersistedItem,
    ItemSemantics: class ItemSemantics { constructor () { throw unsupported('items.ItemSemantics', 'the twin has no semantic model'); } },
    RiemannType: { LEFT: 'LEFT', RIGHT: 'RIGHT', TRAPEZOIDAL: 'TRAPEZOIDAL', MIDPOINT: 'MIDPOINT' },
    TimeSeries: class TimeSeries { constructor () { throw unsupported('items.TimeSeries', 'the twin persists no time series; persistence writes are refused'); } },
    Item
  };
  const items = new Proxy(itemsApi, {
    get (target, prop) {
      if (typeof prop === 'symbol' || prop in target) return target[prop];
      if (prop === 'then' || prop === 'toJSON') return undefined;
      return getItem(prop, true);
    }
  });

  // ------------------------------------------------------------ triggers
  // A trigger's line comes from the stack's call sites, not its text: formatting a stack costs ~0.4 ms, once per trigger of a file's load.
  // The same frames as `new Error().stack` (this function's included, so the same ten); its text where eval'd code
  // is on the stack (its text names the eval's caller) or a script made the hook unusable.
  const ErrorClass = Error;
  const callSites = (e, sites) => sites;
  /** The line of the script file that called into the library (for located problems). */
  function callerLine () {
    const saved = ErrorClass.prepareStackTrace;
    let sites = null;
    try {
      ErrorClass.prepareStackTrace = callSites;
      const holder = {};
      ErrorClass.captureStackTrace(holder);
      sites = holder.stack;
    } catch (e) { sites = null; } finally { try { ErrorClass.prepareStackTrace = saved; } catch (e) { /* left as the script made it */ } }
    if (Array.isArray(sites) && !sites.some((site) => site.isEval())) {
      for (const site of sites) if (site.getFileName() === host.file) return site.getLineNumber();
      return null;
    }
    const stack = String(new ErrorClass().stack || '');
    const re = /\(?([^\s()]+):(\d+):(\d+)\)?/g; let m;
    while ((m = re.exec(stack)) !== null) if (m[1] === host.file) return Number(m[2]);
    return null;
  }
  const trig = (type, config, name) => {
    const pairs = [];
    for (const [k, v] of Object.entries(config)) if (v !== undefined) pairs.push([k, String(v)]);
    return { __twinTrigger: true, type, config: pairs, id: name === undefined ? undefined : String(name), line: callerLine() };
  };
  const iname = (i) => (i instanceof Item ? i.name : i);
  const opt = (v) => (v === undefined || v === null ? undefined : String(v));
  const triggers = {
    ItemStateChangeTrigger: (item, oldState, newState, name) => trig('core.ItemStateChangeTrigger', { itemName: iname(item), previousState: opt(oldState), state: opt(newState) }, name),
    ItemStateUpdateTrigger: (item, state, name) => trig('core.ItemStateUpdateTrigger', { itemName: iname(item), state: opt(state) }, name),
    ItemCommandTrigger: (item, command, name) => trig('core.ItemCommandTrigger', { itemName: iname(item), command: opt(command) }, name),
    GroupStateChangeTrigger: (group, oldState, newState, name) => trig('core.GroupStateChangeTrigger', { groupName: iname(group), previousState: opt(oldState), state: opt(newState) }, name),
    GroupStateUpdateTrigger: (group, state, name) => trig('core.GroupStateUpdateTrigger', { groupName: iname(group), state: opt(state) }, name),
    GroupCommandTrigger: (group, command, name) => trig('core.GroupCommandTrigger', { groupName: iname(group), command: opt(command) }, name),
    ChannelEventTrigger: (channel, event, name) => trig('core.ChannelEventTrigger', { channelUID: String(channel), event: opt(event) }, name),
    ThingStatusUpdateTrigger: (thing, status, name) => trig('core.ThingStatusUpdateTrigger', { thingUID: String(thing), status: opt(status) }, name),
    ThingStatusChangeTrigger: (thing, status, previousStatus, name) => trig('core.ThingStatusChangeTrigger', { thingUID: String(thing), status: opt(status), previousStatus: opt(previousStatus) }, name),
    SystemStartlevelTrigger: (level, name) => trig('core.SystemStartlevelTrigger', { startlevel: Number(level) }, name),
    GenericCronTrigger: (expr, name) => trig('timer.GenericCronTrigger', { cronExpression: String(expr) }, name),
    TimeOfDayTrigger: (t, name) => trig('timer.TimeOfDayTrigger', { time: String(t) }, name),
    DateTimeTrigger: (item, timeOnly = false, offset = 0, name) => trig('timer.DateTimeTrigger', { itemName: iname(item), timeOnly: !!timeOnly, offset: Number(offset) }, name),
    // openhab-js: GenericEventTrigger(eventTopic, eventSource, eventTypes, triggerName); the twin runs it on Item events.
    GenericEventTrigger: (topic, source, types, name) => trig('core.GenericEventTrigger', { topic: String(topic), source: opt(source), types: opt(types) }, name),
    PWMTrigger: () => { throw unsupported('triggers.PWMTrigger'); },
    PIDTrigger: () => { throw unsupported('triggers.PIDTrigger'); }
  };

  // ------------------------------------------------------------ rules
  let ruleCount = 0;
  // openHAB enables and disables a rule at once; the twin applies the change after the run, with the run's other
  // effects. What this run set is remembered here, so isEnabled/getStatus later in the same run answer as
  // openHAB does; a new request (a rule's run, a timer, a UI script) starts without it.
  const enabledThisRun = new Map();
  /** The UIDs of this file's rules whose execute is on the stack (RuleManager.getStatus answers RUNNING for them). */
  const running = new Set();
  const safeUID = (s) => String(s).replace(/[^\w]/g, '-');
  function JSRule (config) {
    if (uiRule !== null) throw unsupported('rules.JSRule in a UI rule\'s script', 'register rules from a script file in automation/js');
    if (!config || typeof config.execute !== 'function') throw new Error('rules.JSRule needs a config with an execute function');
    if (config.dedicatedContext) throw unsupported('JSRule dedicatedContext');
    ruleCount++;
    const name = config.name ?? `JSRule-${ruleCount}`;
    // openhab-js appends a random UUID when there is no id; the twin appends the rule's position in its file,
    // so the UID is the same on every run.
    const id = config.id ? safeUID(config.id) : `${safeUID(name)}-${safeUID(fileStem)}-${ruleCount}`;
    let list = config.triggers === undefined ? [] : (Array.isArray(config.triggers) ? config.triggers : [config.triggers]);
    list = list.map((t, i) => {
      if (!t || !t.__twinTrigger) throw new Error(`trigger ${i + 1} of rule "${name}" is not made by a triggers.* factory`);
      return { type: t.type, config: t.config, id: t.id ?? String(i + 1), line: t.line };
    });
    const spec = { id, name, description: config.description ?? null, tags: config.tags ? [...config.tags].map(String) : [], triggers: list, overwrite: !!config.overwrite, switchItem: config.__switchItem ?? null, line: callerLine() };
    const execute = config.execute;
    host.addRule(JSON.stringify(spec), (event) => {
      running.add(id);
      try { return execute(event); } finally { running.delete(id); }
    });
    // openhab-js returns the Java Rule: its getters the twin knows, a located refusal for the rest.
    const tags = spec.tags, description = spec.description;
    return refusingRest({ getUID: () => id, getName: () => name, getDescription: () => description, getTags: () => new Set(tags), uid: id, name },
      'the Rule rules.JSRule returns', 'the twin answers getUID, getName, getDescription, getTags');
  }
  function SwitchableJSRule (config) {
    const itemName = config.switchItemName || `vRuleItemFor${itemsApi.safeItemName(config.name || '')}`;
    if (!itemsApi.existsItem(itemName)) {
      throw unsupported(`rules.SwitchableJSRule creating its Switch Item ${itemName}`, `declare {"name": "${itemName}", "type": "Switch", "state": "ON"} in the scenario's "items"`);
    }
    return JSRule(Object.assign({}, config, { __switchItem: itemName }));
  }
  const rules = {
    JSRule,
    SwitchableJSRule,
    setEnabled: (uid, enabled) => { enabledThisRun.set(String(uid), !!enabled); emit({ k: 'enable', rule: String(uid), enabled: !!enabled }); },
    // openhab-js runRule(uid, args = {}, cond = true): the arguments join the called rule's context (a UI
    // script reads them as ctx[key] and as globals, a JSRule in event.raw), as JSON values.
    runRule: (uid, args = {}, cond = true) => {
      let json = null;
      if (args !== undefined && args !== null && Object.keys(args).length > 0) json = JSON.stringify(args);
      emit({ k: 'runRule', rule: String(uid), conditions: cond !== false, args: json });
    },
    // openhab-js: ruleManager.isEnabled(uid); a UID the registry does not have throws.
    isEnabled: (uid) => (enabledThisRun.has(String(uid)) ? enabledThisRun.get(String(uid)) : askTwin({ q: 'rule', uid: String(uid) }).enabled),
    removeRule: () => { throw unsupported('rules.removeRule', 'a scenario\'s rules are fixed for its run; disable the rule with rules.setEnabled'); },
    runAsync: () => { throw unsupported('rules.runAsync'); },
    when: (withToggle) => new RuleBuilder(!!withToggle).when()
  };

  // ------------------------------------------------------------ the rule builder (openhab-js rules.when())
  // Written after openhab-js's rule-builder, trigger-builder, condition-builder and operation-builder: the
  // same chain, the same generated names and descriptions, the same quirks (an `if(fn)` gets its arguments as
  // one array; a `changed()` without `from` names itself "undefined=>…"). `.for(…)` and an operation's
  // `.and(…)` fail in openhab-js itself (a constructor called with the wrong arguments, a missing `execute`);
  // the twin refuses them by name.
  class RuleBuilder {
    constructor (toggleable) { this._triggerConfs = []; this.toggleable = toggleable; }
    when () { return new TriggerBuilder(this); }
    addTrigger (conf) { if (!conf._complete()) throw new Error('Trigger is not complete!'); this._triggerConfs.push(conf); return this; }
    setCondition (condition) { this.condition = typeof condition === 'function' ? new FunctionConditionConf(condition) : condition; return this; }
    setOperation (operation, group) {
      if (typeof operation === 'function') {
        const f = operation;
        operation = { _complete: () => true, _run: (x) => f(x), describe: () => 'custom function' };
      } else if (!operation._complete()) {
        throw new Error('Operation is not complete!');
      }
      this.operation = operation; this.optionalRuleGroup = group;
      const generated = this._triggerConfs.flatMap((t) => t._toOHTriggers());
      let run = operation._run.bind(operation);
      for (const conf of this._triggerConfs) {
        const next = run; const hook = typeof conf._executeHook === 'function' ? conf._executeHook() : null;
        if (hook) run = (args) => hook.call(conf, next, args);
      }
      if (this.condition !== undefined) { const unchecked = run; run = (x) => this.condition.check(x) && unchecked(x); }
      const make = this.toggleable ? SwitchableJSRule : JSRule;
      return make({
        name: this.name || itemsApi.safeItemName(this.describe(true)),
        description: this.description || this.describe(true),
        triggers: generated,
        execute: (data) => { run(data); },
        tags: this.tags || [],
        id: this.id
      });
    }
    describe (compact) {
      return (compact ? '' : 'When ') + this._triggerConfs.map((t) => t.describe(compact)).join(' or ') +
        (compact ? '→' : ' then ') + this.operation.describe(compact) +
        ((!compact && this.optionalRuleGroup) ? ` (in group ${this.optionalRuleGroup})` : '');
    }
  }
  class TriggerBuilder {
    constructor (builder) { this._builder = builder; }
    _set (t) { this.currentTrigger = t; return t; }
    _or () { this._builder.addTrigger(this.currentTrigger); return this; }
    _then (fn) { this._or(); return new OperationBuilder(this._builder, fn); }
    _if (fn) { this._or(); return new ConditionBuilder(this._builder, fn); }
    channel (name) { return this._set(new ChannelTriggerConf(name, this)); }
    cron (expr) { return this._set(new SimpleTriggerConf(this, () => triggers.GenericCronTrigger(expr), (c) => c ? `cron_${expr}` : `matches cron "${expr}"`)); }
    timeOfDay (t) { return this._set(new SimpleTriggerConf(this, () => triggers.TimeOfDayTrigger(t), (c) => c ? `timeOfDay_${t}` : `matches time of day "${t}"`)); }
    item (i) { return this._set(new ItemTriggerConf(i, false, this)); }
    memberOf (g) { return this._set(new ItemTriggerConf(g, true, this)); }
    thing (uid) { return this._set(new ThingTriggerConf(uid, this)); }
    system () { return this._set(new SystemTriggerConf(this)); }
    dateTime (i) { return this._set(new DateTimeTriggerConf(i, this)); }
  }
  class TriggerConf {
    constructor (tb) { this.triggerBuilder = tb; }
    or () { return this.triggerBuilder._or(); }
    then (fn) { return this.triggerBuilder._then(fn); }
    if (fn) { return this.triggerBuilder._if(fn); }
  }
  class SimpleTriggerConf extends TriggerConf {
    constructor (tb, make, describe) { super(tb); this._make = make; this._describe = describe; }
    _complete () { return true; }
    _toOHTriggers () { return [this._make()]; }
    describe (c) { return this._describe(c); }
  }
  class ChannelTriggerConf extends TriggerConf {
    constructor (name, tb) { super(tb); this.channelName = name; }
    _toOHTriggers () { return [triggers.ChannelEventTrigger(this.channelName, this.eventName)]; }
    describe (c) { return c ? this.channelName + (this.eventName ? `:${this.eventName}` : '') : `matches channel "${this.channelName}"` + (this.eventName ? `for event ${this.eventName}` : ''); }
    to (e) { return this.triggered(e); }
    triggered (e) { this.eventName = e; return this; }
    _complete () { return true; }
  }
  class ItemTriggerConf extends TriggerConf {
    constructor (item, isGroup, tb) {
      super(tb); this.type = isGroup ? 'memberOf' : 'Item';
      this.item_name = typeof item === 'string' ? item : item.name;
      this.of = this.to;
    }
    to (v) { this.to_value = v.toString(); return this; }
    from (v) { if (this.op_type !== 'changed') throw new Error('.from(..) only available for .changed()'); this.from_value = v.toString(); return this; }
    toOff () { return this.to('OFF'); }
    toOn () { return this.to('ON'); }
    fromOff () { return this.from('OFF'); }
    fromOn () { return this.from('ON'); }
    receivedCommand () { this.op_type = 'receivedCommand'; return this; }
    receivedUpdate () { this.op_type = 'receivedUpdate'; return this; }
    changed () { this.op_type = 'changed'; return this; }
    for () { throw unsupported('rules.when()…changed().for(duration)', 'openhab-js\'s own .for() throws; use a rule with a timer'); }
    _complete () { return this.op_type !== undefined; }
    describe (c) {
      switch (this.op_type) {
        case 'changed':
          if (c) { let t = this.from_value + '=>'; if (this.to_value) t = t + this.to_value; return `${this.item_name} ${t}/Δ`; }
          return `${this.item_name} changed${this.from_value ? ` from ${this.from_value}` : ''}${this.to_value ? ` to ${this.to_value}` : ''}`;
        case 'receivedCommand': return c ? `${this.item_name}/⌘` : `${this.type} ${this.item_name} received command`;
        case 'receivedUpdate': return c ? `${this.item_name}/↻` : `${this.type} ${this.item_name} received update`;
        default: throw new Error('Unknown operation type: ' + this.op_type);
      }
    }
    _toOHTriggers () {
      const g = this.type === 'memberOf';
      switch (this.op_type) {
        case 'changed': return [(g ? triggers.GroupStateChangeTrigger : triggers.ItemStateChangeTrigger)(this.item_name, this.from_value, this.to_value)];
        case 'receivedCommand': return [(g ? triggers.GroupCommandTrigger : triggers.ItemCommandTrigger)(this.item_name, this.to_value)];
        case 'receivedUpdate': return [(g ? triggers.GroupStateUpdateTrigger : triggers.ItemStateUpdateTrigger)(this.item_name, this.to_value)];
        default: throw new Error('Unknown operation type: ' + this.op_type);
      }
    }
    _executeHook () { return this.op_type === 'receivedCommand' ? (next, args) => next({ ...args, it: args.receivedCommand }) : null; }
  }
  class ThingTriggerConf extends TriggerConf {
    constructor (uid, tb) { super(tb); this.thingUID = uid; }
    _complete () { return this.op_type !== undefined; }
    changed () { this.op_type = 'changed'; return this; }
    updated () { this.op_type = 'updated'; return this; }
    from (v) { if (this.op_type !== 'changed') throw new Error('.from(..) only available for .changed()'); this.from_value = v.toString(); return this; }
    to (v) { this.to_value = v.toString(); return this; }
    describe (c) {
      if (this.op_type === 'changed') return `${this.thingUID} changed${this.to_value ? ` to ${this.to_value}` : ''}${this.from_value ? ` from ${this.from_value}` : ''}`;
      if (this.op_type === 'updated') return c ? `${this.thingUID}/updated` : `Thing ${this.thingUID} received update`;
      throw new Error('Unknown operation type: ' + this.op_type);
    }
    _toOHTriggers () {
      if (this.op_type === 'changed') return [triggers.ThingStatusChangeTrigger(this.thingUID, this.to_value, this.from_value)];
      if (this.op_type === 'updated') return [triggers.ThingStatusUpdateTrigger(this.thingUID, this.to_value)];
      throw new Error('Unknown operation type: ' + this.op_type);
    }
  }
  class SystemTriggerConf extends TriggerConf {
    _complete () { return this.level !== undefined; }
    _toOHTriggers () { return [triggers.SystemStartlevelTrigger(this.level)]; }
    describe (c) { return c ? `system:${this.level}` : `system level "${this.level}"`; }
    rulesLoaded () { return this.startLevel(40); }
    ruleEngineStarted () { return this.startLevel(50); }
    userInterfacesStarted () { return this.startLevel(70); }
    thingsInitialized () { return this.startLevel(80); }
    startupComplete () { return this.startLevel(100); }
    startLevel (level) { if (this.level !== undefined) throw new Error('Level already set'); this.level = level; return this; }
  }
  class DateTimeTriggerConf extends TriggerConf {
    constructor (item, tb) { super(tb); this._itemName = item; this._timeOnly = false; this._offset = 0; }
    _complete () { return true; }
    _toOHTriggers () { return [triggers.DateTimeTrigger(this._itemName, this._timeOnly, this._offset)]; }
    describe (c) { return c ? `dateTime_${this._itemName}` : `matches ${this._timeOnly ? 'time' : 'date and time'} of Item "${this._itemName}"`; }
    timeOnly (t = true) { this._timeOnly = t; return this; }
    withOffset (o) { this._offset = o; return this; }
  }
  class ConditionBuilder {
    constructor (builder, fn) { this._builder = builder; this._fn = fn; }
    _then (condition, fn) { this._builder.setCondition(condition); return new OperationBuilder(this._builder, fn); }
    then (fn) {
      if (!this._fn) throw new Error("'then' can only be called when 'if' is passed a function");
      this._builder.setCondition(new FunctionConditionConf(this._fn));
      return new OperationBuilder(this._builder, fn);
    }
    stateOfItem (name) { this.condition = new ItemStateConditionConf(name, this); return this.condition; }
  }
  class FunctionConditionConf {
    constructor (fn, cb) { this.fn = fn; this.conditionBuilder = cb; }
    then (fn) { return this.conditionBuilder._then(this, fn); }
    check (...args) { return this.fn(args); }
  }
  class ItemStateConditionConf {
    constructor (name, cb) { this.item_name = name; this.conditionBuilder = cb; }
    then (fn) { return this.conditionBuilder._then(this, fn); }
    is (v) { this.values = [v]; return this; }
    isOn () { return this.is('ON'); }
    isOff () { return this.is('OFF'); }
    in (...v) { this.values = v; return this; }
    check () { const item = getItem(this.item_name); return this.values.includes(item.state); }
  }
  class OperationBuilder {
    constructor (builder, fn) { this._builder = builder; this._fn = fn; }
    _finishErr () { if (this._fn) throw new Error('rule already completed'); }
    _then (operation, group, name, description, tags, id) {
      Object.assign(this._builder, { name, description, tags, id });
      return this._builder.setOperation(operation, group);
    }
    build (name, description, tags, id) {
      if (!this._fn) throw new Error('Cannot call build without function');
      return this._then(this._fn, this.group, name, description, tags, id);
    }
    inGroup (g) { this.group = g; return this; }
    send (c) { this._finishErr(); return new SendOperation(this, c); }
    postUpdate (u) { this._finishErr(); return new SendOperation(this, u, false); }
    sendOn () { this._finishErr(); return new SendOperation(this, 'ON'); }
    sendOff () { this._finishErr(); return new SendOperation(this, 'OFF'); }
    sendToggle () { this._finishErr(); return new ToggleOperation(this); }
    sendIt () { this._finishErr(); return new SendOperation(this, (a) => a.it.toString(), true, 'it'); }
    postIt () { this._finishErr(); return new SendOperation(this, (a) => a.it.toString(), false, 'it'); }
    copyState () { this._finishErr(); return new CopyOperation(this, false); }
    copyAndSendState () { this._finishErr(); return new CopyOperation(this, true); }
  }
  class OperationConf {
    constructor (ob) { this.operationBuilder = ob; }
    inGroup (g) { this.group = g; return this; }
    build (name, description, tags, id) { return this.operationBuilder._then(this, this.group, name, description, tags, id); }
    and () { throw unsupported('rules.when()…then().….and(…)', 'openhab-js\'s chained operations call a missing execute(); write the operations in a then(fn)'); }
  }
  class CopyOperation extends OperationConf {
    constructor (ob, send) { super(ob); this.send = send; }
    fromItem (n) { this.from_item = n; return this; }
    toItem (n) { this.to_item = n; return this; }
    _run () {
      if (this.from_item === undefined || this.from_item === null) throw new Error('From item not set');
      if (this.to_item === undefined || this.to_item === null) throw new Error('To item not set');
      const from = getItem(this.from_item), to = getItem(this.to_item);
      if (this.send) to.sendCommand(from.state); else to.postUpdate(from.state);
    }
    _complete () { return this.from_item && this.to_item; }
    describe () { return `copy state from ${this.from_item} to ${this.to_item}`; }
  }
  class SendOperation extends OperationConf {
    constructor (ob, data, isCommand = true, desc) {
      super(ob); this.isCommand = isCommand;
      if (typeof data === 'function') { this.dataFn = data; this.dataDesc = desc || '[something]'; } else { this.dataFn = () => data; this.dataDesc = desc || data; }
    }
    toItems (list) { this.toItemNames = list.map((i) => typeof i === 'string' ? i : i.name); return this; }
    toItem (i) { this.toItemNames = [typeof i === 'string' ? i : i.name]; return this; }
    _run (args) {
      for (const n of this.toItemNames) { const item = getItem(n); const data = this.dataFn(args); if (this.isCommand) item.sendCommand(data); else item.postUpdate(data); }
    }
    _complete () { return this.toItemNames !== undefined; }
    describe (c) {
      return c ? this.dataDesc + (this.isCommand ? '⌘' : '↻') + this.toItemNames
        : (this.isCommand ? 'send command' : 'post update') + ` ${this.dataDesc} to ${this.toItemNames}`;
    }
  }
  class ToggleOperation extends OperationConf {
    toItem (n) { this.itemName = n; return this; }
    _run () { getItem(this.itemName).sendToggleCommand(); }
    _complete () { return true; }
    describe () { return `toggle ${this.itemName}`; }
  }

  // ------------------------------------------------------------ timers on the virtual clock
  let timerSeq = 0;
  function delayOf (ms) { const n = Number(ms); return Number.isFinite(n) && n > 0 ? Math.floor(n) : 0; }
  const setTimeout = (fn, ms, ...args) => {
    if (typeof fn !== 'function') throw new TypeError('setTimeout needs a function');
    return host.createTimer(host.now() + delayOf(ms), () => { enabledThisRun.clear(); fn(...args); }, 0, `setTimeout #${++timerSeq}`);
  };
  const setInterval = (fn, ms, ...args) => {
    if (typeof fn !== 'function') throw new TypeError('setInterval needs a function');
    const every = Math.max(1, delayOf(ms));
    return host.createTimer(host.now() + every, () => { enabledThisRun.clear(); fn(...args); }, every, `setInterval #${++timerSeq}`);
  };
  const clearTimer = (id) => { if (typeof id === 'number') host.cancelTimer(id); };

  class Timer {
    constructor (at, fn, label) {
      this._state = 'scheduled';
      this._at = at;
      const self = this;
      this._id = host.createTimer(at, () => { self._state = 'running'; enabledThisRun.clear(); try { fn(); } finally { if (self._state === 'running') self._state = 'terminated'; } }, 0, label);
      this._fn = fn; this._label = label;
    }
    cancel () { const was = host.cancelTimer(this._id); if (was) this._state = 'cancelled'; return was; }
    reschedule (zdt) {
      const at = toZDT(zdt)._e; this._at = at;
      if (!host.rescheduleTimer(this._id, at)) {
        const self = this; const fn = this._fn;
        this._id = host.createTimer(at, () => { self._state = 'running'; enabledThisRun.clear(); try { fn(); } finally { if (self._state === 'running') self._state = 'terminated'; } }, 0, this._label);
      }
      this._state = 'scheduled';
      return true;
    }
    isActive () { return host.timerActive(this._id) && this._state === 'scheduled'; }
    isRunning () { return this._state === 'running'; }
    hasTerminated () { return this._state === 'terminated' || this._state === 'cancelled'; }
    isCancelled () { return this._state === 'cancelled'; }
    getExecutionTime () { return this._state === 'scheduled' ? new ZonedDateTime(this._at, host.zone) : null; }
  }
  /** One of openHAB's script action classes (`actions.X`, `Java.type('…actions.X')`): the members the twin runs, and a located refusal for the others. */
  function actionClass (name, members) { return refusingRest(members, name, `the twin runs ${name}'s ${Object.keys(members).join(', ')}`); }
  const ScriptExecution = actionClass('actions.ScriptExecution', {
    createTimer (...args) {
      let label = 'timer';
      if (typeof args[0] === 'string' && args.length >= 3) label = `timer ${args.shift()}`;
      const [when, fn, ...rest] = args;
      if (typeof fn !== 'function') throw new TypeError('createTimer needs a time and a function');
      return new Timer(toZDT(when)._e, () => fn(...rest), label);
    },
    createTimerWithArgument (when, arg, fn) { return new Timer(toZDT(when)._e, () => fn(arg), 'timer'); },
    callScript () { throw unsupported('actions.ScriptExecution.callScript'); }
  });

  // ------------------------------------------------------------ actions → the twin's outbox
  const out = (channel, action, recipient, text) => emit({ k: 'out', channel, action, recipient: String(recipient), text: String(text) });
  const NotificationAction = actionClass('actions.NotificationAction', {
    sendNotification: (user, msg) => out('notification', 'sendNotification', user, msg),
    sendBroadcastNotification: (msg) => out('notification', 'sendBroadcastNotification', 'broadcast', msg),
    sendLogNotification: (msg) => out('notification', 'sendLogNotification', 'log', msg)
  });
  function notificationBuilder (message) {
    const users = []; let logOnly = false; let title = null;
    const b = {
      addUserId: (...u) => { users.push(...u.map(String)); return b; },
      logOnly: () => { logOnly = true; return b; },
      withTitle: (t) => { title = t; return b; },
      hide: () => b, withIcon: () => b, withTag: () => b, withReferenceId: () => b, withOnClickAction: () => b,
      withMediaAttachmentUrl: () => b, addActionButton: () => b,
      send: () => {
        const text = title ? `${title}: ${message}` : String(message);
        if (logOnly) out('notification', 'sendLogNotification', 'log', text);
        else if (users.length === 0) out('notification', 'sendBroadcastNotification', 'broadcast', text);
        else for (const u of users) out('notification', 'sendNotification', u, text);
        return null;
      }
    };
    return b;
  }
  /** A scripted answer's result (`responses` … `"result"`) as the script sees it. */
  const scriptedResult = (r) => (r === undefined ? null : r);
  function thingActions (binding, thingUID) {
    const scope = String(binding), thing = String(thingUID);
    return new Proxy({}, {
      get: (_, method) => {
        if (typeof method === 'symbol' || method === 'then') return undefined;
        const m = String(method);
        if (scope === 'mail') {
          return (to, subject, body) => { out('mail', m, to, body === undefined ? subject : `${subject}\n${body}`); return true; };
        }
        if (scope === 'telegram') return (...a) => { out('telegram', m, thing, a.map(show).join(' ')); return true; };
        if (scope === 'pushover') return (...a) => { out('pushover', m, thing, a.map(show).join(' ')); return true; };
        // Any other binding's Thing action, as the Rules DSL's getActions: the scope, Thing, method and its
        // arguments go to the outbox (`action`); it returns the scenario's scripted result, else null.
        return (...a) => {
          const args = a.map(show);
          emit({ k: 'act', scope, method: m, thing, args });
          return scriptedResult(askTwin({ q: 'action', scope, method: m, thing }).result);
        };
      }
    });
  }
  // openHAB's Transformation actions: MAP, SCALE (the scenario's transformFiles), REGEX and JSONPATH, as the
  // Rules DSL's transform(); transform gives the value back when the service fails, transformRaw throws.
  const transformCall = (raw) => (type, fn, value) => {
    const a = askTwin({ q: 'transform', type: String(type), function: String(fn), value: show(value), raw });
    if (a.failed !== undefined) {
      if (raw) { const e = new Error(a.failed); e.name = 'TransformationException'; throw e; }
      return show(value);
    }
    return a.value;
  };
  const Transformation = actionClass('actions.Transformation', { transform: transformCall(false), transformRaw: transformCall(true) });
  // HTTP and Exec: the outbox, answered by the scenario's scripted `responses` — and HTTP, as the Rules DSL's, by the
  // twin's own URLs (its OpenWeatherMap, its REST API) — null when none matches, noted in the run log as the DSL does.
  function httpCall (method) {
    return (url, ...rest) => {
      const u = String(url);
      let body = '';
      if ((method === 'POST' || method === 'PUT') && rest.length >= 2 && typeof rest[0] === 'string') body = show(rest[1]);
      out('http', `sendHttp${method[0]}${method.slice(1).toLowerCase()}Request`, u, body === '' ? `${method} ${u}` : `${method} ${u} ${body}`);
      const a = askTwin({ q: 'http', url: u, method, body });
      if (a.status !== undefined && (a.status < 200 || a.status > 299)) emit({ k: 'note', text: `${method} ${u} answered ${a.status} by the twin` });
      if (a.body === null) emit({ k: 'note', text: `error: ${host.file}: ${method} ${u} has no scripted response; it was answered as a failure (null) (rules.unscripted); hint: add {"url": "${u}", "body": "…"} to the scenario's "responses"` });
      return a.body;
    };
  }
  const HTTP = actionClass('actions.HTTP', {
    sendHttpGetRequest: httpCall('GET'), sendHttpPostRequest: httpCall('POST'), sendHttpPutRequest: httpCall('PUT'),
    sendHttpDeleteRequest: httpCall('DELETE')
  });
  const Exec = actionClass('actions.Exec', {
    executeCommandLine: (...a) => {
      let waits = false;
      if (a[0] instanceof Duration) { waits = true; a = a.slice(1); }
      if (a.length === 0) throw new Error('executeCommandLine takes a command (and optionally a Duration first)');
      const parts = a.map(show); const command = parts.join(' ');
      out('exec', 'executeCommandLine', parts[0], command);
      const answer = askTwin({ q: 'exec', command });
      if (answer.output === null) {
        emit({ k: 'note', text: `error: ${host.file}: executeCommandLine "${command}" has no scripted response; it was answered as a failure (null) (rules.unscripted); hint: add {"command": "${command}", "output": "…"} to the scenario's "responses"` });
        return null;
      }
      return waits ? answer.output : null;
    }
  });
  // Ephemeris: openHAB's default dayset "weekend" (Saturday, Sunday); bank holidays from the scenario's
  // `ephemeris.bankHolidays` (the twin has no holiday calendar of its own), as for the Rules DSL.
  const ephemerisDay = (x) => {
    const today = ZonedDateTime.now();
    if (x === undefined || x === null) return today;
    if (typeof x === 'number') return today.plusDays(x);
    return toZDT(x);
  };
  const isoDate = (z) => { const f = z._f(); return `${pad(f.year, 4)}-${pad(f.month)}-${pad(f.day)}`; };
  const holiday = (x) => askTwin({ q: 'holiday', date: isoDate(ephemerisDay(x)) }).name;
  const Ephemeris = actionClass('actions.Ephemeris', {
    isWeekend: (x) => ephemerisDay(x)._f().dow >= 6,
    isInDayset: (name, x) => {
      if (String(name) !== 'weekend') throw unsupported(`actions.Ephemeris.isInDayset("${name}")`, 'the twin knows openHAB\'s default dayset "weekend" only');
      return ephemerisDay(x)._f().dow >= 6;
    },
    isBankHoliday: (x) => holiday(x) !== null,
    getBankHolidayName: (x) => holiday(x),
    getNextBankHoliday: () => { throw unsupported('actions.Ephemeris.getNextBankHoliday'); },
    getDaysUntil: () => { throw unsupported('actions.Ephemeris.getDaysUntil'); },
    getHolidayDescription: () => { throw unsupported('actions.Ephemeris.getHolidayDescription'); }
  });
  const Voice = actionClass('actions.Voice', { say: (text, voice, sink) => out('say', 'say', sink ?? 'default', text), interpret: () => { throw unsupported('actions.Voice.interpret'); } });
  const Audio = actionClass('actions.Audio', { playSound: (a, b) => out('sound', 'playSound', b === undefined ? 'default' : a, b === undefined ? a : b), playStream: () => { throw unsupported('actions.Audio.playStream'); } });
  const LogAction = actionClass('actions.Log', {
    logInfo: (l, m, ...a) => logLine('INFO', l, slf4j(m, a)), logWarn: (l, m, ...a) => logLine('WARN', l, slf4j(m, a)),
    logError: (l, m, ...a) => logLine('ERROR', l, slf4j(m, a)), logDebug: () => {}, logTrace: () => {}
  });
  const BusEvent = actionClass('actions.BusEvent', {
    sendCommand: (i, v) => emit({ k: 'cmd', item: iname(i), value: valueText(v) }),
    postUpdate: (i, v) => emit({ k: 'upd', item: iname(i), value: valueText(v) })
  });
  const refuse = (ns) => new Proxy({}, { get: (_, p) => (typeof p === 'symbol' || p === 'then' ? undefined : () => { throw unsupported(`actions.${ns}.${String(p)}`); }) });
  const Things = actionClass('actions.Things', {
    getThingStatusInfo: (uid) => { const t = thingData(String(uid)); return t === null ? null : statusInfoOf(t); },
    getActions: (scope, uid) => thingActions(scope, uid)
  });
  const actions = {
    ScriptExecution, NotificationAction, notificationBuilder, thingActions, get: thingActions, Voice, Audio, Log: LogAction, BusEvent,
    HTTP, Exec, Ephemeris, Transformation, Things,
    Ping: refuse('Ping'), Semantics: refuse('Semantics'), CoreUtil: refuse('CoreUtil')
  };

  // ------------------------------------------------------------ cache
  function makeCache (store) {
    return {
      get: (key, supplier) => {
        if (store.has(key)) return store.get(key);
        if (typeof supplier === 'function') { const v = supplier(); store.set(key, v); return v; }
        return null;
      },
      put: (key, value) => { const prev = store.has(key) ? store.get(key) : null; store.set(key, value); return prev; },
      remove: (key) => { const prev = store.has(key) ? store.get(key) : null; store.delete(key); return prev; },
      exists: (key) => store.has(key)
    };
  }
  // cache.shared is one store for all files of the world; its get/put/remove/exists are this realm's functions
  // and hand back only what scripts put there.
  const sharedWrapped = { has: wrap((k) => sharedStore.has(k)), get: wrap((k) => sharedStore.get(k)), set: wrap((k, v) => sharedStore.set(k, v)), delete: wrap((k) => sharedStore.delete(k)) };
  const cache = { private: makeCache(privateStore), shared: makeCache(sharedWrapped) };
  for (const m of ['get', 'put', 'remove', 'exists']) cache[m] = () => { throw unsupported(`cache.${m}`, 'removed in openhab-js 5; use cache.private or cache.shared'); };

  // ------------------------------------------------------------ openHAB's state types and java.math (Java.type)
  // As openhab-core's library.types compute them: a DecimalType holds a BigDecimal (exact decimal digits, printed
  // plain), the enum types are Java enums (`name()`, `ordinal()`, `as(Class)`), every state prints with
  // `toString()` as openHAB prints it, so sendCommand/postUpdate and string comparisons see openHAB's text.
  // A member openHAB has and the twin does not run throws a located rules.jsUnsupported naming it.
  const refuseMembers = (cls, names, hint) => {
    for (const n of names) {
      Object.defineProperty(cls.prototype, n, { value: function () { throw unsupported(`${cls.__javaName}.${n}`, hint); }, writable: true, configurable: true });
    }
  };
  const TEN = 10n;
  // A scale far beyond any real number's (a hostile setScale(1e9)) would build a billion-digit BigInt: refused as Java runs out of memory there.
  const pow10 = (n) => { if (!(Math.abs(n) <= 100000)) throw new Error(`ArithmeticException: a scale of ${n} digits is beyond the twin's BigDecimal (±100000)`); return TEN ** BigInt(n); };
  /** java.math.RoundingMode. */
  class RoundingMode {
    constructor (name, ordinal) { this._name = name; this._o = ordinal; }
    name () { return this._name; }
    ordinal () { return this._o; }
    toString () { return this._name; }
    equals (o) { return o === this; }
  }
  RoundingMode.__javaName = 'java.math.RoundingMode';
  ['UP', 'DOWN', 'CEILING', 'FLOOR', 'HALF_UP', 'HALF_DOWN', 'HALF_EVEN', 'UNNECESSARY'].forEach((n, i) => { RoundingMode[n] = new RoundingMode(n, i); });
  RoundingMode.valueOf = (n) => { const m = RoundingMode[String(n)]; if (!(m instanceof RoundingMode)) throw new Error(`IllegalArgumentException: No enum constant java.math.RoundingMode.${n}`); return m; };
  RoundingMode.values = () => ['UP', 'DOWN', 'CEILING', 'FLOOR', 'HALF_UP', 'HALF_DOWN', 'HALF_EVEN', 'UNNECESSARY'].map((n) => RoundingMode[n]);
  /** q = n / d (BigInt, d > 0 or < 0) rounded by `mode`. */
  function divRound (n, d, mode) {
    if (d < 0n) { n = -n; d = -d; }
    let q = n / d; const r = n - q * d;
    if (r === 0n) return q;
    const sign = n < 0n ? -1n : 1n; const twice = (r < 0n ? -r : r) * 2n;
    const away = () => { q += sign; };
    switch (mode) {
      case RoundingMode.UP: away(); break;
      case RoundingMode.DOWN: break;
      case RoundingMode.CEILING: if (sign > 0n) away(); break;
      case RoundingMode.FLOOR: if (sign < 0n) away(); break;
      case RoundingMode.HALF_DOWN: if (twice > d) away(); break;
      case RoundingMode.HALF_EVEN: if (twice > d || (twice === d && (q % 2n !== 0n))) away(); break;
      case RoundingMode.UNNECESSARY: throw new Error('ArithmeticException: Rounding necessary');
      default: if (twice >= d) away(); // HALF_UP
    }
    return q;
  }
  /** java.math.BigDecimal: an unscaled BigInt and a scale, exact as Java's. */
  class BigDecimal {
    constructor (v, scale) {
      if (typeof v === 'bigint') { this._u = v; this._s = scale || 0; return; }
      if (v instanceof BigDecimal) { this._u = v._u; this._s = v._s; return; }
      const text = typeof v === 'number' ? javaDoubleText(v) : String(v);
      const m = /^([-+]?)(\d*)(?:\.(\d*))?(?:[eE]([-+]?\d+))?$/.exec(text);
      if (!m || (m[2] === '' && (m[3] === undefined || m[3] === '')) || (m[4] !== undefined && Math.abs(+m[4]) > 1000)) {
        throw new Error(`NumberFormatException: Invalid BigDecimal value: ${text.length > 120 ? text.slice(0, 120) + '…' : text}`);
      }
      const frac = m[3] || '';
      this._u = BigInt((m[1] === '-' ? '-' : '') + ((m[2] + frac) || '0'));
      this._s = frac.length - (m[4] ? +m[4] : 0);
    }
    static valueOf (v, scale) { return typeof v === 'number' && scale !== undefined ? new BigDecimal(BigInt(Math.trunc(v)), Number(scale)) : new BigDecimal(typeof v === 'number' && Number.isInteger(v) ? BigInt(v) : v); }
    _align (o) { const b = o instanceof BigDecimal ? o : new BigDecimal(o); const s = Math.max(this._s, b._s); return [this._u * pow10(s - this._s), b._u * pow10(s - b._s), s]; }
    scale () { return this._s; }
    unscaledValue () { return this._u; }
    precision () { return (this._u < 0n ? -this._u : this._u).toString().length; }
    signum () { return this._u > 0n ? 1 : this._u < 0n ? -1 : 0; }
    toPlainString () {
      const neg = this._u < 0n; let digits = (neg ? -this._u : this._u).toString();
      if (this._s <= 0) return (neg ? '-' : '') + digits + (this._u === 0n ? '' : '0'.repeat(-this._s));
      digits = digits.padStart(this._s + 1, '0');
      return (neg ? '-' : '') + digits.slice(0, digits.length - this._s) + '.' + digits.slice(digits.length - this._s);
    }
    toString () {
      const neg = this._u < 0n; const digits = (neg ? -this._u : this._u).toString();
      const adjusted = -this._s + (digits.length - 1);
      if (this._s >= 0 && adjusted >= -6) return this.toPlainString();
      return (neg ? '-' : '') + digits[0] + (digits.length > 1 ? '.' + digits.slice(1) : '') + 'E' + (adjusted >= 0 ? '+' : '') + adjusted;
    }
    toJSON () { return this.toString(); }
    doubleValue () { return Number(this.toString()); }
    floatValue () { return Math.fround(this.doubleValue()); }
    longValue () { return Number(BigInt.asIntN(64, this.setScale(0, RoundingMode.DOWN)._u)); }
    intValue () { return Number(BigInt.asIntN(32, this.setScale(0, RoundingMode.DOWN)._u)); }
    compareTo (o) { const [a, b] = this._align(o); return a < b ? -1 : a > b ? 1 : 0; }
    equals (o) { return o instanceof BigDecimal && o._u === this._u && o._s === this._s; }
    add (o) { const [a, b, s] = this._align(o); return new BigDecimal(a + b, s); }
    subtract (o) { const [a, b, s] = this._align(o); return new BigDecimal(a - b, s); }
    multiply (o) { const b = o instanceof BigDecimal ? o : new BigDecimal(o); return new BigDecimal(this._u * b._u, this._s + b._s); }
    negate () { return new BigDecimal(-this._u, this._s); }
    abs () { return this._u < 0n ? this.negate() : this; }
    max (o) { return this.compareTo(o) >= 0 ? this : o; }
    min (o) { return this.compareTo(o) <= 0 ? this : o; }
    setScale (scale, mode = RoundingMode.UNNECESSARY) {
      const s = Number(scale);
      if (s >= this._s) return new BigDecimal(this._u * pow10(s - this._s), s);
      return new BigDecimal(divRound(this._u, pow10(this._s - s), mode), s);
    }
    stripTrailingZeros () { let u = this._u, s = this._s; if (u === 0n) return new BigDecimal(0n, 0); while (u % TEN === 0n) { u /= TEN; s--; } return new BigDecimal(u, s); }
    /** divide(o), exact (ArithmeticException when it does not end); divide(o, mode); divide(o, scale, mode). */
    divide (o, a, b) {
      const d = o instanceof BigDecimal ? o : new BigDecimal(o);
      if (d._u === 0n) throw new Error(this._u === 0n ? 'ArithmeticException: Division undefined' : 'ArithmeticException: Division by zero');
      if (a instanceof RoundingMode || (a !== undefined && b !== undefined)) {
        const scale = a instanceof RoundingMode ? this._s : Number(a); const mode = a instanceof RoundingMode ? a : b;
        return new BigDecimal(divRound(this._u * pow10(scale - this._s + d._s), d._u, mode), scale);
      }
      const preferred = this._s - d._s;
      for (let extra = 0; extra <= 400; extra++) {
        const scale = Math.max(preferred, 0) + extra;
        const n = this._u * pow10(scale - this._s + d._s);
        if (n % d._u === 0n) {
          let r = new BigDecimal(n / d._u, scale);
          while (r._s > preferred && r._u % TEN === 0n) r = new BigDecimal(r._u / TEN, r._s - 1);
          return r;
        }
      }
      throw new Error('ArithmeticException: Non-terminating decimal expansion; no exact representable decimal result.');
    }
  }
  BigDecimal.__javaName = 'java.math.BigDecimal';
  BigDecimal.ZERO = new BigDecimal(0n); BigDecimal.ONE = new BigDecimal(1n); BigDecimal.TEN = new BigDecimal(10n);
  refuseMembers(BigDecimal, ['pow', 'sqrt', 'remainder', 'divideToIntegralValue', 'divideAndRemainder', 'round', 'movePointLeft', 'movePointRight', 'scaleByPowerOfTen', 'toBigInteger', 'toBigIntegerExact', 'toEngineeringString', 'ulp', 'hashCode'],
    'the twin\'s BigDecimal runs the arithmetic real rules use: add, subtract, multiply, divide, setScale, compareTo');
  /** Java's Double.toString of a JS number as GraalJS hands it over (an integral value is an Integer/Long). */
  function javaDoubleText (n) {
    if (!Number.isFinite(n)) throw new Error(`NumberFormatException: ${n} is not a finite number`);
    if (Number.isInteger(n) && Math.abs(n) < 2 ** 63) return BigInt(n).toString();
    const t = String(n);
    return /e/.test(t) && !/\./.test(t.split('e')[0]) ? t.replace('e', '.0e') : t;
  }
  /** A number the types take: a JS number, a numeric string, a BigDecimal, a DecimalType. */
  function decimalOf (v) {
    if (v instanceof DecimalType) return v.toBigDecimal();
    if (v instanceof BigDecimal) return v;
    return new BigDecimal(typeof v === 'number' ? v : String(v).trim());
  }
  // java.util.Formatter, the conversions openHAB's format(pattern) is used with: %s %d %f %.Nf %e %x %% %n.
  function javaFormat (pattern, value) {
    return String(pattern).replace(/%(\d+\$)?([-#+ 0,(]*)(\d+)?(\.\d+)?([a-zA-Z%])/g, (all, arg, flags, width, prec, conv) => {
      let out;
      switch (conv) {
        case '%': return '%';
        case 'n': return '\n';
        case 's': case 'S': out = value instanceof BigDecimal ? value.toString() : show(value); if (prec) out = out.slice(0, +prec.slice(1)); if (conv === 'S') out = out.toUpperCase(); break;
        case 'd': {
          if (!(value instanceof BigDecimal) || value.stripTrailingZeros()._s > 0) throw new Error(`IllegalFormatConversionException: d != ${value instanceof BigDecimal ? 'java.math.BigDecimal' : typeof value}`);
          out = value.setScale(0).toPlainString(); break;
        }
        case 'f': {
          if (!(value instanceof BigDecimal)) throw new Error(`IllegalFormatConversionException: f != ${typeof value}`);
          out = value.setScale(prec ? +prec.slice(1) : 6, RoundingMode.HALF_UP).toPlainString(); break;
        }
        case 'x': case 'X': out = value instanceof BigDecimal ? value.setScale(0)._u.toString(16) : show(value); if (conv === 'X') out = out.toUpperCase(); break;
        default: throw unsupported(`the format conversion %${conv} in "${pattern}"`, 'the twin formats %s, %d, %f, %.Nf, %x, %% and %n');
      }
      if (flags.includes(',') && /^-?\d/.test(out)) { const [i, f] = out.split('.'); out = i.replace(/\B(?=(\d{3})+(?!\d))/g, ',') + (f !== undefined ? '.' + f : ''); }
      if (flags.includes('+') && /^\d/.test(out)) out = '+' + out;
      if (width && out.length < +width) out = flags.includes('-') ? out.padEnd(+width) : (flags.includes('0') ? out.replace(/^(-?)/, (s) => s + '0'.repeat(+width - out.length)) : out.padStart(+width));
      return out;
    });
  }
  /** The base of openHAB's enum types (OnOffType, OpenClosedType, …): Java enums. */
  class JavaEnum {
    constructor (name, ordinal) { this._name = name; this._o = ordinal; }
    name () { return this._name; }
    ordinal () { return this._o; }
    toString () { return this._name; }
    toFullString () { return this._name; }
    toJSON () { return this._name; }
    equals (o) { return o === this; }
    compareTo (o) { return this._o - o._o; }
    format (pattern) { return javaFormat(pattern, this._name); }
    getDeclaringClass () { return this.constructor; }
    as (target) { return target === this.constructor ? this : (this._as ? this._as(target) : null); }
  }
  function javaEnum (cls, javaName, names) {
    cls.__javaName = javaName;
    names.forEach((n, i) => { cls[n] = new cls(n, i); });
    cls.values = () => names.map((n) => cls[n]);
    cls.valueOf = (n) => { if (!names.includes(String(n))) throw new Error(`IllegalArgumentException: No enum constant ${javaName}.${n}`); return cls[String(n)]; };
    return cls;
  }
  class OnOffType extends JavaEnum {
    _as (t) {
      if (t === DecimalType) return new DecimalType(this === OnOffType.ON ? 1 : 0);
      if (t === PercentType) return this === OnOffType.ON ? PercentType.HUNDRED : PercentType.ZERO;
      if (t === HSBType) return this === OnOffType.ON ? HSBType.WHITE : HSBType.BLACK;
      return null;
    }
    static from (v) { return (typeof v === 'string' ? ['ON', '1'].includes(v.toUpperCase()) : !!v) ? OnOffType.ON : OnOffType.OFF; }
  }
  javaEnum(OnOffType, 'org.openhab.core.library.types.OnOffType', ['ON', 'OFF']);
  class OpenClosedType extends JavaEnum {
    _as (t) {
      if (t === DecimalType) return new DecimalType(this === OpenClosedType.OPEN ? 1 : 0);
      if (t === PercentType) return this === OpenClosedType.OPEN ? PercentType.HUNDRED : PercentType.ZERO;
      return null;
    }
  }
  javaEnum(OpenClosedType, 'org.openhab.core.library.types.OpenClosedType', ['OPEN', 'CLOSED']);
  class UpDownType extends JavaEnum {
    _as (t) {
      if (t === DecimalType) return this === UpDownType.UP ? DecimalType.ZERO : new DecimalType('1.0');
      if (t === PercentType) return this === UpDownType.UP ? PercentType.ZERO : PercentType.HUNDRED;
      return null;
    }
  }
  javaEnum(UpDownType, 'org.openhab.core.library.types.UpDownType', ['UP', 'DOWN']);
  class UnDefType extends JavaEnum {}
  javaEnum(UnDefType, 'org.openhab.core.types.UnDefType', ['UNDEF', 'NULL']);
  class StopMoveType extends JavaEnum {}
  javaEnum(StopMoveType, 'org.openhab.core.library.types.StopMoveType', ['STOP', 'MOVE']);
  class IncreaseDecreaseType extends JavaEnum {}
  javaEnum(IncreaseDecreaseType, 'org.openhab.core.library.types.IncreaseDecreaseType', ['INCREASE', 'DECREASE']);
  class PlayPauseType extends JavaEnum {}
  javaEnum(PlayPauseType, 'org.openhab.core.library.types.PlayPauseType', ['PLAY', 'PAUSE']);
  class NextPreviousType extends JavaEnum {}
  javaEnum(NextPreviousType, 'org.openhab.core.library.types.NextPreviousType', ['NEXT', 'PREVIOUS']);
  class RewindFastforwardType extends JavaEnum {}
  javaEnum(RewindFastforwardType, 'org.openhab.core.library.types.RewindFastforwardType', ['REWIND', 'FASTFORWARD']);

  /** org.openhab.core.library.types.DecimalType. */
  class DecimalType {
    constructor (v = 0) {
      if (typeof v === 'string') {
        // openHAB parses with the English DecimalFormat: grouping commas allowed, nothing after the number.
        const t = v.toUpperCase();
        if (!/^-?(\d[\d,]*)?(\.\d*)?(E[-+]?\d+)?$/.test(t) || !/\d/.test(t)) throw new Error(`NumberFormatException: Invalid BigDecimal value: ${v.length > 120 ? v.slice(0, 120) + '…' : v}`);
        this._b = new BigDecimal(t.replace(/,/g, ''));
      } else {
        this._b = decimalOf(v);
      }
    }
    static valueOf (v) { return new DecimalType(String(v)); }
    toBigDecimal () { return this._b; }
    toString () { return this._b.toPlainString(); }
    toFullString () { return this.toString(); }
    toJSON () { return this.toString(); }
    doubleValue () { return this._b.doubleValue(); }
    floatValue () { return this._b.floatValue(); }
    intValue () { return this._b.intValue(); }
    longValue () { return this._b.longValue(); }
    shortValue () { return (this.intValue() << 16) >> 16; }
    byteValue () { return (this.intValue() << 24) >> 24; }
    equals (o) { return o instanceof DecimalType && !(o instanceof QuantityType) && this._b.compareTo(o._b) === 0; }
    compareTo (o) { return this._b.compareTo(decimalOf(o)); }
    format (pattern) {
      const whole = this._b.stripTrailingZeros()._s <= 0;
      if (whole) { try { return javaFormat(pattern, this._b.setScale(0)); } catch (e) { if (!/IllegalFormatConversion/.test(e.message)) throw e; } }
      return javaFormat(pattern, this._b);
    }
    as (t) {
      if (t === DecimalType) return this;
      const zero = this._b.signum() === 0, one = this._b.compareTo(BigDecimal.ONE) === 0;
      if (t === OnOffType) return zero ? OnOffType.OFF : OnOffType.ON;
      if (t === PercentType) return new PercentType(this._b.multiply(new BigDecimal(100n)));
      if (t === UpDownType) return zero ? UpDownType.UP : one ? UpDownType.DOWN : null;
      if (t === OpenClosedType) return zero ? OpenClosedType.CLOSED : one ? OpenClosedType.OPEN : null;
      if (t === HSBType) return new HSBType(DecimalType.ZERO, PercentType.ZERO, new PercentType(this._b.multiply(new BigDecimal(100n))));
      if (t === DateTimeType) return new DateTimeType(this.toString());
      if (t === StringType) return new StringType(this.toString());
      return null;
    }
  }
  DecimalType.__javaName = 'org.openhab.core.library.types.DecimalType';
  DecimalType.ZERO = new DecimalType(0);
  refuseMembers(DecimalType, ['hashCode'], 'hash codes differ from the JVM\'s');
  class HueType extends DecimalType {}
  /** org.openhab.core.library.types.PercentType: a DecimalType from 0 to 100. */
  class PercentType extends DecimalType {
    constructor (v = 0) {
      super(typeof v === 'string' ? v.trim() : v);
      if (this._b.compareTo(BigDecimal.ZERO) < 0 || this._b.compareTo(new BigDecimal(100n)) > 0) throw new Error(`IllegalArgumentException: Value must be between 0 and 100`);
    }
    static valueOf (v) { return new PercentType(String(v)); }
    equals (o) { return o instanceof PercentType && !(o instanceof HSBType) && this._b.compareTo(o._b) === 0; }
    as (t) {
      if (t === PercentType) return this;
      if (t === DecimalType) return new DecimalType(this._b.divide(new BigDecimal(100n), 8, RoundingMode.UP));
      if (t === QuantityType) { const d = this.doubleValue(); return new QuantityType(Number.isInteger(d) ? `${d}.0` : String(d), '%'); }
      const zero = this._b.signum() === 0, full = this._b.compareTo(new BigDecimal(100n)) === 0;
      if (t === OnOffType) return zero ? OnOffType.OFF : OnOffType.ON;
      if (t === UpDownType) return zero ? UpDownType.UP : full ? UpDownType.DOWN : null;
      if (t === OpenClosedType) return zero ? OpenClosedType.CLOSED : full ? OpenClosedType.OPEN : null;
      if (t === HSBType) return new HSBType(DecimalType.ZERO, PercentType.ZERO, this);
      return super.as(t);
    }
  }
  PercentType.__javaName = 'org.openhab.core.library.types.PercentType';
  PercentType.ZERO = new PercentType(0);
  PercentType.HUNDRED = new PercentType(100);
  /** javax.measure's Unit as the state types hand it out: its symbol. */
  class JavaUnit {
    constructor (symbol) { this._s = symbol; }
    getSymbol () { return this._s; }
    toString () { return this._s; }
    equals (o) { return o instanceof JavaUnit && o._s === this._s; }
  }
  JavaUnit.__javaName = 'javax.measure.Unit';
  const unitText = (u) => (u instanceof JavaUnit ? u._s : String(u));
  /** org.openhab.core.library.types.QuantityType: a BigDecimal and a unit, converted as openhab-js's Quantity converts. */
  class QuantityType extends DecimalType {
    constructor (v, unit) {
      if (unit === undefined) {
        const m = /^\s*([-+]?\d*\.?\d+(?:[eE][-+]?\d+)?)\s*(\S.*?)?\s*$/.exec(String(v === undefined ? '0' : v));
        if (!m) throw new Error(`IllegalArgumentException: Invalid QuantityType value: ${v}`);
        super(m[1].replace(/^\+/, ''));
        this._u = m[2] === undefined ? 'one' : m[2];
      } else {
        super(v);
        this._u = unitText(unit);
      }
      if (this._u !== 'one' && !TEMPS[this._u] && !UNITS[this._u]) throw unsupported(`the unit "${this._u}"`, 'the twin knows the units listed for Quantity');
    }
    static valueOf (v, unit) { return unit === undefined ? new QuantityType(String(v)) : new QuantityType(v, unit); }
    getUnit () { return new JavaUnit(this._u); }
    toString () { return this._u === 'one' ? this._b.toPlainString() : `${this._b.toPlainString()} ${this._u}`; }
    _quantity () { return new Quantity(this.doubleValue(), this._u); }
    toUnit (u) {
      const target = unitText(u);
      if (target === this._u) return this;
      const q = this._quantity().toUnit(target);
      return q === null ? null : new QuantityType(q.float, target);
    }
    _same (o) {
      if (!(o instanceof QuantityType)) return decimalOf(o);
      const c = o.toUnit(this._u);
      if (c === null) throw new Error(`IllegalArgumentException: ${o} is not compatible with ${this._u}`);
      return c._b;
    }
    add (o) { return new QuantityType(this._b.add(this._same(o)), this._u); }
    subtract (o) { return new QuantityType(this._b.subtract(this._same(o)), this._u); }
    multiply (n) { if (n instanceof QuantityType) throw unsupported('QuantityType.multiply(QuantityType)', 'multiply by a number'); return new QuantityType(this._b.multiply(decimalOf(n)), this._u); }
    divide (n) {
      if (n instanceof QuantityType) throw unsupported('QuantityType.divide(QuantityType)', 'divide by a number');
      const d = decimalOf(n);
      // javax.measure divides in MathContext.DECIMAL128: exact when the quotient ends, else 34 significant digits.
      let r; try { r = this._b.divide(d); } catch (e) {
        if (/Division/.test(e.message)) throw e;
        r = this._b.divide(d, 40 + Math.max(0, d.precision() - d._s), RoundingMode.HALF_EVEN);
        r = r.setScale(r._s - (r.precision() - 34), RoundingMode.HALF_EVEN);
      }
      return new QuantityType(r, this._u);
    }
    negate () { return new QuantityType(this._b.negate(), this._u); }
    /** openhab-core: a quantity of a compatible unit with the same value once converted (1000 W equals 1 kW). */
    equals (o) { if (!(o instanceof QuantityType)) return false; try { return this._b.compareTo(this._same(o)) === 0; } catch (e) { return false; } }
    compareTo (o) { return this._b.compareTo(this._same(o)); }
    format (pattern) { return super.format(String(pattern).replace(/%unit%/g, this._u === 'one' ? '' : this._u)); }
    as (t) {
      if (t === QuantityType) return this;
      if (t === DecimalType) return new DecimalType(this._b);
      if (t === PercentType) return this._u === '%' ? new PercentType(this._b) : new PercentType(this._b.multiply(new BigDecimal(100n)));
      return super.as(t);
    }
  }
  QuantityType.__javaName = 'org.openhab.core.library.types.QuantityType';
  refuseMembers(QuantityType, ['getDimension', 'toInvertibleUnit', 'toUnitRelative', 'offset'], 'the twin converts between units of one dimension with toUnit');
  /** org.openhab.core.library.types.StringType. */
  class StringType {
    constructor (v = '') { this._t = v === null ? '' : String(v); }
    static valueOf (v) { return new StringType(v); }
    toString () { return this._t; }
    toFullString () { return this._t; }
    toJSON () { return this._t; }
    equals (o) { return (o instanceof StringType && o._t === this._t) || (typeof o === 'string' && o === this._t); }
    format (pattern) { return javaFormat(pattern, this._t); }
    as (t) { return t === StringType ? this : null; }
  }
  StringType.__javaName = 'org.openhab.core.library.types.StringType';
  StringType.EMPTY = new StringType('');
  refuseMembers(StringType, ['hashCode'], 'hash codes differ from the JVM\'s');
  /** org.openhab.core.library.types.DateTimeType: an instant in a zone, printed as openHAB prints it. */
  class DateTimeType {
    constructor (v) {
      if (v === undefined) { this._z = ZonedDateTime.now(); return; }
      if (v instanceof ZonedDateTime) { this._z = v; return; }
      if (v instanceof Instant) { this._z = new ZonedDateTime(v._e, host.zone); return; }
      const text = String(v).trim();
      const z = /^-?\d+(\.\d+)?$/.test(text) ? new ZonedDateTime(Math.round(Number(text) * (text.length <= 10 ? 1000 : 1)), host.zone) : parseZoned(text.replace(/([+-]\d{2})(\d{2})$/, '$1:$2'));
      if (!z) throw new Error(`IllegalArgumentException: ${text} is not in a valid format.`);
      this._z = z;
    }
    static valueOf (v) { return new DateTimeType(String(v)); }
    getZonedDateTime (zone) { return zone === undefined ? this._z : this._z.withZoneSameInstant(zone); }
    getInstant () { return this._z.toInstant(); }
    toZone (zone) { return new DateTimeType(this._z.withZoneSameInstant(zone)); }
    toLocaleZone () { return new DateTimeType(this._z.withZoneSameInstant(host.zone)); }
    toString () { return this._z.toOpenHabString(); }
    toFullString () { return this.toString(); }
    toJSON () { return this.toString(); }
    equals (o) { return o instanceof DateTimeType && o._z._e === this._z._e; }
    compareTo (o) { return Math.sign(this._z._e - o._z._e); }
    as (t) { return t === DateTimeType ? this : (t === StringType ? new StringType(this.toString()) : null); }
  }
  DateTimeType.__javaName = 'org.openhab.core.library.types.DateTimeType';
  refuseMembers(DateTimeType, ['format', 'getCalendar', 'hashCode'], 'java.util.Formatter\'s %t conversions are not run; format getZonedDateTime() with time.DateTimeFormatter');
  // ColorUtil's 5 significant digits and BigDecimal's plain text without trailing zeros (the twin's Rules DSL prints HSBType so).
  const plainNumber = (x) => {
    const r = Math.round(x * 1e10) / 1e10;
    return Math.abs(r) >= 1e-6 || r === 0 ? String(r) : r.toFixed(10).replace(/0+$/, '');
  };
  const significant5 = (x) => {
    if (x === 0 || !Number.isFinite(x)) return x;
    const scale = 10 ** (5 - Math.floor(Math.log10(Math.abs(x))) - 1);
    return Math.sign(x) * Math.round(Math.abs(x) * scale) / scale;
  };
  const numberOf = (v) => Number(v instanceof DecimalType ? v.doubleValue() : v);
  /** org.openhab.core.library.types.HSBType: a PercentType (its brightness) with a hue and a saturation. */
  class HSBType extends PercentType {
    constructor (h, s, b) {
      if (arguments.length === 0) { h = 0; s = 0; b = 0; } else if (arguments.length === 1) {
        const parts = String(h).split(',');
        if (parts.length !== 3) throw new Error(`IllegalArgumentException: ${h} is not a valid HSBType syntax`);
        [h, s, b] = parts.map((p) => Number(p.trim()));
      }
      const [hv, sv, bv] = [h, s, b].map(numberOf);
      if (!(hv >= 0 && hv <= 360)) throw new Error('IllegalArgumentException: Hue must be between 0 and 360');
      if (!(sv >= 0 && sv <= 100)) throw new Error('IllegalArgumentException: Saturation must be between 0 and 100');
      if (!(bv >= 0 && bv <= 100)) throw new Error('IllegalArgumentException: Brightness must be between 0 and 100');
      super(bv);
      this._h = hv === 360 ? 0 : hv; this._s = sv; this._bv = bv;
    }
    getHue () { return new HueType(this._h); }
    getSaturation () { return new PercentType(this._s); }
    getBrightness () { return new PercentType(this._bv); }
    // ColorUtil.hsbToRgbPercent
    toRGB () {
      const h = Math.round(this._h / 100 * 1e10) / 1e10, sat = this._s / 100, v = this._bv;
      const hInt = Math.trunc(h * 5 / 3), f5 = Math.round(h * 5 / 3 * 1e10) / 1e10, frac = f5 - Math.trunc(f5);
      const a = v * (1 - sat), b = v * (1 - sat * frac), c = v * (1 - (1 - frac) * sat);
      const rgb = [[v, c, a], [b, v, a], [a, v, c], [a, b, v], [c, a, v], [v, a, b], [v, c, a]][hInt];
      return rgb.map((x) => new PercentType(x));
    }
    getRed () { return this.toRGB()[0]; }
    getGreen () { return this.toRGB()[1]; }
    getBlue () { return this.toRGB()[2]; }
    getRGB () {
      const bytes = this.toRGB().map((p) => Math.round(p.doubleValue() * 255 / 100) & 0xFF);
      return (0xFF000000 | (bytes[0] << 16) | (bytes[1] << 8) | bytes[2]) | 0;
    }
    toString () { return `${plainNumber(this._h)},${plainNumber(this._s)},${plainNumber(this._bv)}`; }
    toFullString () { return this.toString(); }
    equals (o) { return o instanceof HSBType && o._h === this._h && o._s === this._s && o._bv === this._bv; }
    as (t) {
      if (t === HSBType) return this;
      if (t === PercentType) return new PercentType(this._bv);
      return new PercentType(this._bv).as(t);
    }
    // ColorUtil.rgbToHsb(int[]): each byte to percent (/ 2.55, 5 digits), then hue, saturation, brightness.
    static fromRGB (r, g, b) {
      const rgb = [r, g, b].map(Number);
      rgb.forEach((v, k) => { if (!(v >= 0 && v <= 255)) throw new Error(`IllegalArgumentException: rgbToHsb() argument ${k} value '${v}' out of range [0..255]`); });
      const [pr, pg, pb] = rgb.map((v) => significant5(v / 2.55));
      const high = Math.max(pr, pg, pb), low = Math.min(pr, pg, pb), span = high - low;
      if (high === 0) return new HSBType(0, 0, 0);
      if (span === 0) return new HSBType(0, 0, high);
      const saturation = significant5(span / high) * 100, scale = significant5(span / 60);
      const ra = significant5((high - pr) / scale), ga = significant5((high - pg) / scale), ba = significant5((high - pb) / scale);
      let hue = pr === high ? ba - ga : (pg === high ? 120 + ra - ba : 240 + ga - ra);
      if (hue < 0) hue += 360; else if (hue >= 360) hue -= 360;
      return new HSBType(hue, saturation, high);
    }
    static valueOf (text) { return new HSBType(String(text)); }
  }
  HSBType.__javaName = 'org.openhab.core.library.types.HSBType';
  HSBType.BLACK = new HSBType(0, 0, 0);
  HSBType.WHITE = new HSBType(0, 0, 100);
  HSBType.RED = new HSBType(0, 100, 100);
  HSBType.GREEN = new HSBType(120, 100, 100);
  HSBType.BLUE = new HSBType(240, 100, 100);
  refuseMembers(HSBType, ['getCyan', 'getMagenta', 'getYellow', 'toXY', 'fromXY'], 'the twin converts HSB and RGB only');
  /** An Item's state text as openHAB's State object of the Item's type (what `rawState` gives). */
  function stateObject (type, s) {
    if (s === 'NULL' || s === 'UNDEF') return UnDefType[s];
    const t = type.replace(/^Group:/, '');
    try {
      if (t === 'Switch') return OnOffType.valueOf(s);
      if (t === 'Contact') return OpenClosedType.valueOf(s);
      if (t === 'Dimmer' || t === 'Rollershutter') return new PercentType(s);
      if (t === 'Color') return HSBType.valueOf(s);
      if (t === 'Number') return new DecimalType(s);
      if (t.startsWith('Number:')) return new QuantityType(s);
      if (t === 'DateTime') return new DateTimeType(s);
      if (t === 'Player') return /^(PLAY|PAUSE)$/.test(s) ? PlayPauseType.valueOf(s) : RewindFastforwardType.valueOf(s);
      if (t === 'String') return new StringType(s);
    } catch (e) { /* a state text the type does not read (an average of a Switch): a number or a text */ }
    if (/^-?\d+(\.\d+)?$/.test(s)) return new DecimalType(s);
    return new StringType(s);
  }

  // ------------------------------------------------------------ Java.type, utils, osgi
  // require('@runtime')'s state constants: the enum types' constants.
  const STATES = {
    ON: OnOffType.ON, OFF: OnOffType.OFF, OPEN: OpenClosedType.OPEN, CLOSED: OpenClosedType.CLOSED, NULL: UnDefType.NULL, UNDEF: UnDefType.UNDEF,
    UP: UpDownType.UP, DOWN: UpDownType.DOWN, STOP: StopMoveType.STOP, MOVE: StopMoveType.MOVE, INCREASE: IncreaseDecreaseType.INCREASE,
    DECREASE: IncreaseDecreaseType.DECREASE, PLAY: PlayPauseType.PLAY, PAUSE: PlayPauseType.PAUSE, NEXT: NextPreviousType.NEXT,
    PREVIOUS: NextPreviousType.PREVIOUS, REWIND: RewindFastforwardType.REWIND, FASTFORWARD: RewindFastforwardType.FASTFORWARD
  };
  // openHAB's unit classes: the units the twin converts (Quantity's table), as javax.measure Units.
  const unitsOf = (javaName, map) => { const o = { __javaName: javaName }; for (const [k, v] of Object.entries(map)) o[k] = new JavaUnit(v); return o; };
  const UNIT_CLASSES = {
    SIUnits: unitsOf('org.openhab.core.library.unit.SIUnits', { CELSIUS: '°C', METRE: 'm', PASCAL: 'Pa', CUBIC_METRE: 'm³', KILOMETRE_PER_HOUR: 'km/h' }),
    ImperialUnits: unitsOf('org.openhab.core.library.unit.ImperialUnits', { FAHRENHEIT: '°F' }),
    Units: unitsOf('org.openhab.core.library.unit.Units', {
      ONE: 'one', PERCENT: '%', KELVIN: 'K', WATT: 'W', KILOWATT_HOUR: 'kWh', WATT_HOUR: 'Wh', MEGAWATT_HOUR: 'MWh', JOULE: 'J', VOLT: 'V',
      AMPERE: 'A', LUX: 'lx', SECOND: 's', MINUTE: 'min', HOUR: 'h', DAY: 'd', LITRE: 'l', BAR: 'bar', METRE_PER_SECOND: 'm/s'
    }),
    MetricPrefix: { __javaName: 'org.openhab.core.library.unit.MetricPrefix' }
  };
  for (const [p, f] of [['KILO', 'k'], ['MEGA', 'M'], ['MILLI', 'm'], ['CENTI', 'c'], ['HECTO', 'h']]) {
    // MetricPrefix.KILO(Units.WATT) → kW, as far as the twin knows the prefixed unit.
    UNIT_CLASSES.MetricPrefix[p] = (u) => { const s = f + unitText(u); if (!UNITS[s]) throw unsupported(`MetricPrefix.${p}(${unitText(u)})`, 'the twin knows the units listed for Quantity'); return new JavaUnit(s); };
  }
  /** openHAB's RuleStatus and RuleStatusDetail (Java enums). */
  class RuleStatus extends JavaEnum {}
  javaEnum(RuleStatus, 'org.openhab.core.automation.RuleStatus', ['UNINITIALIZED', 'INITIALIZING', 'IDLE', 'RUNNING']);
  class RuleStatusDetail extends JavaEnum {}
  javaEnum(RuleStatusDetail, 'org.openhab.core.automation.RuleStatusDetail', ['NONE', 'HANDLER_MISSING_ERROR', 'HANDLER_INITIALIZING_ERROR', 'CONFIGURATION_ERROR', 'TEMPLATE_MISSING_ERROR', 'INVALID_RULE', 'DISABLED']);
  const JAVA = {
    'java.time.ZonedDateTime': ZonedDateTime, 'java.time.LocalTime': LocalTime, 'java.time.LocalDate': LocalDate, 'java.time.LocalDateTime': LocalDateTime,
    'java.time.Instant': Instant, 'java.time.Duration': Duration, 'java.time.temporal.ChronoUnit': ChronoUnit, 'java.time.ZoneId': ZoneId,
    'java.time.temporal.ChronoField': ChronoField,
    'java.time.format.DateTimeFormatter': DateTimeFormatter, 'java.time.DayOfWeek': DayOfWeek,
    'org.slf4j.LoggerFactory': { getLogger: (n) => makeLogger(String(n)) },
    'org.openhab.core.model.script.actions.Log': LogAction,
    'org.openhab.core.model.script.actions.ScriptExecution': ScriptExecution,
    'org.openhab.core.model.script.actions.BusEvent': BusEvent,
    // openhab-js's actions.* are these classes themselves (its actions.js takes each with Java.type).
    'org.openhab.core.model.script.actions.Ephemeris': Ephemeris,
    'org.openhab.core.model.script.actions.Exec': Exec,
    'org.openhab.core.model.script.actions.HTTP': HTTP,
    'org.openhab.core.model.script.actions.Transformation': Transformation,
    'org.openhab.core.model.script.actions.Voice': Voice,
    'org.openhab.core.model.script.actions.Audio': Audio,
    'org.openhab.core.model.script.actions.Things': Things,
    'org.openhab.io.openhabcloud.NotificationAction': NotificationAction,
    'org.openhab.core.library.types.OnOffType': OnOffType,
    'org.openhab.core.library.types.OpenClosedType': OpenClosedType,
    'org.openhab.core.library.types.UpDownType': UpDownType,
    'org.openhab.core.library.types.StopMoveType': StopMoveType,
    'org.openhab.core.library.types.IncreaseDecreaseType': IncreaseDecreaseType,
    'org.openhab.core.library.types.PlayPauseType': PlayPauseType,
    'org.openhab.core.library.types.NextPreviousType': NextPreviousType,
    'org.openhab.core.library.types.RewindFastforwardType': RewindFastforwardType,
    'org.openhab.core.types.UnDefType': UnDefType,
    'org.openhab.core.library.types.DecimalType': DecimalType,
    'org.openhab.core.library.types.PercentType': PercentType,
    'org.openhab.core.library.types.QuantityType': QuantityType,
    'org.openhab.core.library.types.StringType': StringType,
    'org.openhab.core.library.types.DateTimeType': DateTimeType,
    'org.openhab.core.library.types.HSBType': HSBType,
    'org.openhab.core.library.unit.SIUnits': UNIT_CLASSES.SIUnits,
    'org.openhab.core.library.unit.ImperialUnits': UNIT_CLASSES.ImperialUnits,
    'org.openhab.core.library.unit.Units': UNIT_CLASSES.Units,
    'org.openhab.core.library.unit.MetricPrefix': UNIT_CLASSES.MetricPrefix,
    'java.math.BigDecimal': BigDecimal,
    'org.openhab.core.automation.RuleManager': { __javaName: 'org.openhab.core.automation.RuleManager' },
    'org.openhab.core.automation.RuleStatus': RuleStatus,
    'org.openhab.core.automation.RuleStatusDetail': RuleStatusDetail,
    'org.openhab.core.items.ItemRegistry': { __javaName: 'org.openhab.core.items.ItemRegistry' },
    'java.math.RoundingMode': RoundingMode,
    'java.lang.System': { getenv: (k) => (k === 'OPENHAB_CONF' ? host.confDir : null), currentTimeMillis: () => host.now() },
    'java.lang.Thread': { sleep: () => { throw unsupported('java.lang.Thread.sleep', 'use setTimeout or createTimer on the virtual clock'); } }
  };
  /** An openHAB class the twin does not have: taken as GraalJS takes it (a script that only imports it runs), and
   * every use — a member, a call, `new` — is a located refusal naming `Class.member`. */
  function laterRefused (name) {
    const short = name.slice(name.lastIndexOf('.') + 1);
    const hint = 'the twin has the openHAB classes listed in Docs/JAVASCRIPT.md';
    return new Proxy(function () {}, {
      get (target, prop) {
        if (typeof prop === 'symbol' || prop === 'then' || prop === 'toJSON') return undefined;
        if (prop === '__javaName') return name;
        throw unsupported(`${short}.${String(prop)} (${name})`, hint);
      },
      apply () { throw unsupported(`${short}(…) (${name})`, hint); },
      construct () { throw unsupported(`new ${short}(…) (${name})`, hint); }
    });
  }
  const Java = {
    type: (name) => {
      if (Object.prototype.hasOwnProperty.call(JAVA, name)) return JAVA[name];
      const text = String(name);
      if (text.length <= 200 && /^org\.openhab\.[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)*\.[A-Z][A-Za-z0-9_$]*$/.test(text)) return laterRefused(text);
      throw unsupported(`Java.type("${text.length > 120 ? text.slice(0, 120) + '…' : text}")`, 'the twin has the java.time, java.math, logging, action and state-type classes listed in Docs/JAVASCRIPT.md');
    },
    from: (x) => [...x], to: (x) => x, isJavaObject: () => false, typeName: () => undefined,
    extend: () => { throw unsupported('Java.extend'); }
  };
  let uuidCount = 0;
  const utils = {
    randomUUID: () => { const h = (n) => Math.floor(Math.random() * 2 ** 32).toString(16).padStart(8, '0').slice(0, n); uuidCount++; return `${h(8)}-${h(4)}-4${h(3)}-a${h(3)}-${h(8)}${h(4)}`; },
    dumpObject: (o) => logLine('INFO', 'utils', show(o)),
    javaListToJsArray: (l) => [...l], javaSetToJsArray: (s) => [...s], jsArrayToJavaList: (a) => a, jsArrayToJavaSet: (a) => new Set(a),
    javaMapToJsObj: (m) => Object.fromEntries(m instanceof Map ? m : Object.entries(m)), jsObjToJavaMap: (o) => new Map(Object.entries(o)),
    isJsInstanceOfJavaType: () => false,
    javaMapToJsMap: (m) => new Map(m instanceof Map ? m : Object.entries(m)), javaSetToJsSet: (s) => new Set(s), jsSetToJavaSet: (s) => new Set(s),
    // The twin's values are JavaScript values on both sides: javaify/jsify hand them back as they are.
    javaify: (v) => v, jsify: (v) => v,
    OPENHAB_JS_VERSION: 'twin'
  };
  // ------------------------------------------------------------ osgi: the services real files reach
  /** Whether rule `uid` is enabled, or null when no rule has it (RuleManager.isEnabled). */
  const enabledOrNull = (uid) => {
    if (enabledThisRun.has(String(uid))) return enabledThisRun.get(String(uid));
    const a = JSON.parse(host.ask(JSON.stringify({ q: 'rule', uid: String(uid) })));
    if (a && a.error) { if (/^There is no rule/.test(a.error)) return null; askTwin({ q: 'rule', uid: String(uid) }); }
    return a.enabled;
  };
  /**
   * openHAB's RuleManager on the twin's engine: runNow → rules.runRule (the run happens after the calling run, as
   * every effect of a run; its context map is not handed back), setEnabled/isEnabled → the engine's enablement,
   * getStatus/getStatusInfo from it (RUNNING for a rule of this file whose execute is on the stack).
   */
  const ruleManager = {
    runNow: (uid, considerConditions = false, context) => { rules.runRule(uid, context ?? {}, considerConditions === true); return new Map(); },
    setEnabled: (uid, enabled) => rules.setEnabled(uid, enabled),
    isEnabled: (uid) => enabledOrNull(uid),
    getStatus: (uid) => {
      const enabled = enabledOrNull(uid);
      if (enabled === null) return null;
      if (!enabled) return RuleStatus.UNINITIALIZED;
      return running.has(String(uid)) || uiRule === String(uid) ? RuleStatus.RUNNING : RuleStatus.IDLE;
    },
    getStatusInfo: (uid) => {
      const status = ruleManager.getStatus(uid);
      if (status === null) return null;
      const detail = status === RuleStatus.UNINITIALIZED ? RuleStatusDetail.DISABLED : RuleStatusDetail.NONE;
      return { getStatus: () => status, getStatusDetail: () => detail, getDescription: () => null, toString: () => `${status}${detail === RuleStatusDetail.NONE ? '' : ` (${detail})`}` };
    }
  };
  const SERVICES = {
    'org.openhab.core.automation.RuleManager': () => refusingRest(ruleManager, 'org.openhab.core.automation.RuleManager', 'the twin runs runNow, setEnabled, isEnabled, getStatus and getStatusInfo'),
    'org.openhab.core.items.ItemRegistry': () => refusingRest(runtimeScope.itemRegistry, 'org.openhab.core.items.ItemRegistry', 'the twin runs getItem, get and getItems; declare Items in the scenario')
  };
  const serviceName = (c) => {
    const n = typeof c === 'string' ? c : (c && c.__javaName) || String(c);
    if (Object.prototype.hasOwnProperty.call(SERVICES, n)) return n;
    const full = Object.keys(SERVICES).find((k) => k.endsWith('.' + n));
    return full || n;
  };
  /** `target`'s members, and a located rules.jsUnsupported for any other member used. */
  function refusingRest (target, name, hint) {
    return new Proxy(target, {
      get (t, p) {
        if (typeof p === 'symbol' || p in t) return t[p];
        if (p === 'then' || p === 'toJSON') return undefined;
        throw unsupported(`${name}.${String(p)}`, hint);
      }
    });
  }
  /** A service the twin does not mirror: getting it works (real files get services at load), using any member is refused. */
  const refusedService = (n) => refusingRest({}, `osgi service ${n}`, 'the twin mirrors the RuleManager and the ItemRegistry only; use the openhab-js API');
  const serviceOf = (c) => { const n = serviceName(c); return SERVICES[n] ? SERVICES[n]() : refusedService(n); };
  const osgi = {
    // openhab-js: the first of the services named (class names or classes) that exists.
    getService: (...names) => { if (names.length === 0) throw new Error('osgi.getService needs a class or a class name'); return serviceOf(names[0]); },
    findServices: (name) => [serviceOf(name)],
    registerService: () => { throw unsupported('osgi.registerService', 'the twin registers no OSGi services'); },
    registerPermanentService: () => { throw unsupported('osgi.registerPermanentService', 'the twin registers no OSGi services'); },
    unregisterService: () => { throw unsupported('osgi.unregisterService', 'the twin registers no OSGi services'); }
  };
  // ------------------------------------------------------------ things: the twin's Thing registry, mirrored
  function thingData (uid) { const json = host.thing(uid); return json === undefined ? null : JSON.parse(json); }
  /** openHAB's ThingStatusInfo: getStatus(), getStatusDetail(), getDescription(), and its toString. */
  function statusInfoOf (t) {
    const text = t.status + (t.statusDetail === 'NONE' ? '' : ` (${t.statusDetail})`) + (t.description ? `: ${t.description}` : '');
    return { getStatus: () => t.status, getStatusDetail: () => t.statusDetail, getDescription: () => t.description, toString: () => text };
  }
  class Thing {
    constructor (uid) { this._uid = uid; }
    get _d () { const d = thingData(this._uid); if (d === null) throw new Error(`Thing ${this._uid} is no longer in the twin's Thing registry`); return d; }
    get uid () { return this._uid; }
    get label () { return this._d.label; }
    get location () { return this._d.location; }
    get status () { return this._d.status; }
    get statusInfo () { return statusInfoOf(this._d).toString(); }
    get thingTypeUID () { return this._d.thingTypeUID; }
    get bridgeUID () { return this._d.bridgeUID ?? null; }
    get isEnabled () { return this._d.status !== 'UNINITIALIZED' || this._d.statusDetail !== 'DISABLED'; }
    setLabel () { throw unsupported('Thing.setLabel', 'the twin\'s Things come from the scenario'); }
    setLocation () { throw unsupported('Thing.setLocation', 'the twin\'s Things come from the scenario'); }
    setProperty () { throw unsupported('Thing.setProperty', 'the twin\'s Things come from the scenario'); }
    setEnabled () { throw unsupported('Thing.setEnabled', 'the twin\'s Things come from the scenario'); }
    toString () { return this._uid; }
  }
  const things = {
    Thing,
    getThing: (uid) => (thingData(String(uid)) === null ? null : new Thing(String(uid))),
    getThings: () => host.thingUIDs().split('\n').filter((u) => u.length > 0).map((u) => new Thing(u))
  };
  const environment = {
    isScriptFile: () => uiRule === null,
    // No provider registries in the twin: Items are declared in the scenario (items.addItem is refused either way).
    useProviderRegistries: () => {},
    OPENHAB_JS_VERSION: 'twin', GRAALJS_VERSION: 'none (Node.js)', OPENHAB_VERSION: 'twin'
  };

  const openhab = { items, things, rules, triggers, actions, cache, time, utils, osgi, log: makeLogger, Quantity: Q, environment };

  // ------------------------------------------------------------ globals
  for (const [k, v] of Object.entries(openhab)) hide(k, v);
  hide('console', console);
  hide('setTimeout', setTimeout); hide('setInterval', setInterval);
  hide('clearTimeout', clearTimer); hide('clearInterval', clearTimer);
  hide('Java', Java);
  hide('__openhab', openhab);
  hide('__twinEvent', function (json, args) { enabledThisRun.clear(); const e = JSON.parse(json); e.raw = args ? JSON.parse(args) : {}; return e; });
  // A UI rule's script module: the add-on's `rules._getTriggeredData(ctx, true)` — the event object with the
  // old Java event's names kept as deprecated getters that warn when read (itemState, oldItemState,
  // itemCommand, type, channel, event).
  hide('__twinUIEvent', function (json, args) {
    enabledThisRun.clear();
    const e = JSON.parse(json); e.raw = args ? JSON.parse(args) : {};
    const old = (name, value, hint) => {
      if (value === undefined) return;
      Object.defineProperty(e, name, { get () { console.warn(`event.${name} is deprecated, ${hint}`); return value; }, enumerable: false, configurable: true });
    };
    old('itemState', e.receivedState ?? e.newState, 'use event.receivedState for update triggers or event.newState for change triggers instead.');
    old('oldItemState', e.oldState, 'use event.oldState instead. If you use Blockly, simply resave the script.');
    old('itemCommand', e.receivedCommand, 'use event.receivedCommand instead. If you use Blockly, simply resave the script.');
    old('type', e.eventName, 'use event.eventName instead. If you use Blockly, simply resave the script.');
    old('channel', e.channelUID, 'use event.channelUID instead. If you use Blockly, simply resave the script.');
    old('event', e.receivedEvent, 'use event.receivedEvent instead. If you use Blockly, simply resave the script.');
    return e;
  });
  // `ctx`: openHAB's module context — the rule's UID and the trigger's outputs by name.
  hide('__twinUICtx', function (json, rule, args) {
    const e = JSON.parse(json); const c = args ? JSON.parse(args) : {};
    c.ruleUID = rule;
    const map = { oldState: 'oldState', newState: 'newState', receivedState: 'state', receivedCommand: 'command', oldStatus: 'oldStatus', newStatus: 'newStatus', status: 'status', module: 'module' };
    for (const [from, to] of Object.entries(map)) if (e[from] !== undefined) c[to] = e[from];
    return c;
  });
  // require('@runtime'): the add-on's raw Java scope, which older Blockly code opens with
  // (`var itemRegistry = runtime.itemRegistry; var events = runtime.events;`).
  const javaItem = (name) => {
    const it = getItem(name);
    return {
      getName: () => it.name, getLabel: () => it.label, getType: () => it.type, getState: () => it.rawState,
      getGroupNames: () => it.groupNames, getTags: () => it.tags, getMembers: () => it.members.map((m) => javaItem(m.name)),
      toString: () => it.toString()
    };
  };
  const runtimeScope = {
    itemRegistry: { getItem: javaItem, get: javaItem, getItems: () => itemsApi.getItems().map((i) => javaItem(i.name)) },
    events: {
      sendCommand: (i, v) => emit({ k: 'cmd', item: typeof i === 'string' ? i : i.getName(), value: valueText(v) }),
      postUpdate: (i, v) => emit({ k: 'upd', item: typeof i === 'string' ? i : i.getName(), value: valueText(v) })
    },
    ...STATES,
    OnOffType, OpenClosedType, UpDownType, StopMoveType, IncreaseDecreaseType, PlayPauseType, NextPreviousType, RewindFastforwardType,
    UnDefType, DecimalType, PercentType, QuantityType, StringType, DateTimeType, HSBType, ...UNIT_CLASSES,
    ScriptExecution, things: { get: (uid) => things.getThing(uid) }
  };
  hide('__twinRuntime', new Proxy(runtimeScope, {
    get: (t, p) => {
      if (typeof p === 'symbol' || p in t) return t[p];
      if (p === 'then' || p === 'toJSON' || p === '__esModule') return undefined;
      throw unsupported(`require('@runtime').${String(p)}`, 'use the openhab-js API (items, actions, things)');
    }
  }));
  hide('__twinMakeRequire', function (from) { return (spec) => host.require(String(spec), from); });
  hide('require', global.__twinMakeRequire(host.file));
  // load(path): the older scripts' way to include a file — evaluated in the caller's global scope on each call.
  hide('load', function (p) { return host.load(String(p)); });
  hide('module', { exports: {} });
  hide('exports', global.module.exports);
})(globalThis);
