// RentalTwin's JavaScript host: the child process the twin drives.
//
// It speaks length-prefixed JSON over stdin/stdout (4 bytes big-endian length, then UTF-8 JSON), one
// request, one answer, strictly in turn. It never runs Node's event loop: everything a script does
// happens inside a request, on the twin's virtual clock. One `vm` context per script file; the
// openhab-js API (openhab.js, next to this file) is evaluated inside each context, so the user's code
// sees only objects of its own realm. Nothing outside the scenario's folder is read.
'use strict';
const vm = require('vm');
const fs = require('fs');
const path = require('path');

const LIB_FILE = path.join(__dirname, 'openhab.js');
const library = new vm.Script(fs.readFileSync(LIB_FILE, 'utf8'), { filename: 'openhab-js (twin)' });
// Calls the pending function of a context's call slot inside that context, so that its microtasks run after the
// call (microtaskMode 'afterEvaluate'). One global lookup: reading and writing the context's globals goes through
// vm's interceptors, several times slower than a plain object's properties.
const invoker = new vm.Script('(() => { const s = __twinCall; const fn = s.fn, arg = s.arg; s.fn = undefined; s.arg = undefined; return fn(arg); })()',
  { filename: 'twin-invoke' });
// The call slot: an object of the context's own realm (no script may reach an object of this one),
// sealed, so a script cannot turn its members into accessors.
const slotMaker = new vm.Script("Object.defineProperty(globalThis, '__twinCall', { value: Object.seal({ fn: undefined, arg: undefined }), enumerable: false }).__twinCall",
  { filename: 'twin-invoke' });

let world = null; // set by "init"

/** An error the twin reports as located: a stable code, a message, a location. */
class TwinError extends Error {
  constructor (code, message, location) { super(message); this.code = code; this.location = location; }
}

// ---------------------------------------------------------------- protocol

// Reads go through one buffer (a message's length and body usually arrive in one read); a message goes out
// in one write.
let input = Buffer.allocUnsafe(1 << 16);
let inStart = 0, inEnd = 0;
// A wait for the twin's next message first reads without sleeping, for up to SPIN_MS, while such spins pay (the
// twin's SpinPolicy: an answered spin earns 1 credit up to 8, one that found nothing costs 4; without credit the
// waits for the twin's messages number 32k and 32k + 1 spin, as probes): on an idle machine the next request then
// finds the child awake instead of waking a sleeping core. The probes fall where the twin's do (its probe waits for
// the answer to its message 32k): a probe pays only when the other side is awake too. A non-blocking second open
// of stdin (the same pipe) is read; where there is none (no /proc), no spin.
// wall-clock: SPIN_MS bounds a spin; the time read never reaches a script.
const SPIN_MS = 0.05;
let spinFd = -1;
try { spinFd = fs.openSync('/proc/self/fd/0', fs.constants.O_RDONLY | fs.constants.O_NONBLOCK); } catch (e) { spinFd = -1; }
let spinCredit = 8, received = 0; // received: the twin's messages read so far
function shouldSpin () {
  if (spinFd < 0) return false;
  const next = (received + 1) % 32;
  return spinCredit > 0 || next === 0 || next === 1;
}
/** Reads the pipe without sleeping for up to SPIN_MS; true when bytes arrived (end of file is left to the blocking read). */
function spinRead () {
  const keep = Error.stackTraceLimit;
  Error.stackTraceLimit = 0; // EAGAIN throws; without a stack trace it is cheap
  try {
    const until = performance.now() + SPIN_MS; // wall-clock: bounds the spin
    do {
      try {
        const n = fs.readSync(spinFd, input, inEnd, input.length - inEnd, null);
        if (n === 0) return false;
        inEnd += n;
        return true;
      } catch (e) { if (e.code !== 'EAGAIN') return false; }
    } while (performance.now() < until); // wall-clock: bounds the spin
    return false;
  } finally { Error.stackTraceLimit = keep; }
}
/** Reads until the buffer holds `count` bytes from inStart; false at end of file. */
function fill (count) {
  if (inStart === inEnd && shouldSpin()) spinCredit = spinRead() ? Math.min(spinCredit + 1, 8) : Math.max(spinCredit - 4, 0);
  if (input.length - inStart < count) {
    input.copy(input, 0, inStart, inEnd);
    inEnd -= inStart; inStart = 0;
    if (input.length < count) { const bigger = Buffer.allocUnsafe(count); input.copy(bigger, 0, 0, inEnd); input = bigger; }
  }
  while (inEnd - inStart < count) {
    let n;
    try { n = fs.readSync(0, input, inEnd, input.length - inEnd, null); } catch (e) {
      if (e.code === 'EAGAIN') continue;
      if (e.code === 'EOF') return false;
      throw e;
    }
    if (n === 0) return false;
    inEnd += n;
  }
  return true;
}
function readMessage () {
  if (!fill(4)) return null;
  const len = input.readUInt32BE(inStart);
  if (len > 64 * 1024 * 1024) throw new Error('message too long');
  if (!fill(4 + len)) return null;
  const text = input.toString('utf8', inStart + 4, inStart + 4 + len);
  received++;
  inStart += 4 + len;
  if (inStart === inEnd) { inStart = 0; inEnd = 0; }
  return JSON.parse(text);
}
let output = Buffer.allocUnsafe(1 << 16);
/** Writes one message, given as JSON text. */
function writeText (text) {
  const len = Buffer.byteLength(text, 'utf8');
  if (output.length < 4 + len) output = Buffer.allocUnsafe(4 + len);
  output.writeUInt32BE(len, 0);
  output.write(text, 4, len, 'utf8');
  let off = 0;
  while (off < 4 + len) {
    try { off += fs.writeSync(1, output, off, 4 + len - off); } catch (e) { if (e.code !== 'EAGAIN') throw e; }
  }
}
function writeMessage (obj) { writeText(JSON.stringify(obj)); }

// ---------------------------------------------------------------- the world mirror

function hash32 (text) {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) { h ^= text.charCodeAt(i); h = Math.imul(h, 0x01000193) >>> 0; }
  return h >>> 0;
}

function init (msg) {
  world = {
    now: msg.now,
    zone: msg.zone,
    seed: String(msg.seed),
    root: path.resolve(msg.root),
    conf: msg.conf ? path.resolve(msg.conf) : null,
    budgetMs: msg.budgetMs,
    items: new Map(),
    files: new Map(), // display name → file state
    modules: new Map(), // UI rule script module key → {file, script, wrapped}
    things: new Map(), // Thing UID → JSON text (the twin's Thing registry, mirrored)
    thingsLive: false, // whether the twin sends Thing changes with each request
    needsThings: false, // whether code that reads Things was seen (the twin then keeps them live)
    rules: new Map(), // rule id → {file, fn, spec}
    timers: new Map(), // timer id → {file, fn, args, interval, at}
    nextTimer: 1,
    shared: new Map(),
    effects: []
  };
  for (const it of msg.items) world.items.set(it.name, it);
  return {};
}

function applyStates (states) {
  if (!states) return;
  for (const name of Object.keys(states)) {
    const it = world.items.get(name);
    if (it) it.state = states[name];
  }
}

/**
 * The Things changed since the last request (the twin sends a Thing's whole record; `null` removes it). The
 * twin sends the whole registry when the world starts, and changes with each request once code that reads
 * Things is known (`needsThings`: a source that names them, or a read while they are not live).
 */
function applyThings (things) {
  if (!things) return;
  world.thingsLive = true;
  for (const uid of Object.keys(things)) {
    if (things[uid] === null) world.things.delete(uid); else world.things.set(uid, JSON.stringify(things[uid]));
  }
}

// A request's effects, each as the JSON text of one object (the library's are written in the script's realm by
// the JSON.stringify it captured at its start, the host's here); the answer joins them.
function emit (effect) { world.effects.push(JSON.stringify(effect)); }

// ---------------------------------------------------------------- files and require

function inside (root, p) { const rel = path.relative(root, p); return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel)); }

function display (abs) { return path.relative(world.root, abs) || abs; }

function readInside (abs, from) {
  if (!inside(world.root, abs)) throw new TwinError('rules.jsRequire', `${display(abs)} is outside the scenario's folder; the twin reads nothing there`, from);
  return fs.readFileSync(abs, 'utf8');
}

function isFile (p) { try { return inside(world.root, p) && fs.statSync(p).isFile(); } catch (e) { return false; } }
function isDir (p) { try { return inside(world.root, p) && fs.statSync(p).isDirectory(); } catch (e) { return false; } }

/** Conf roots real files hard-code, mapped into the scenario's conf directory (whole path segments). */
function mapConfRoot (spec) {
  for (const root of ['/etc/openhab', '/openhab/conf']) {
    if (spec === root || spec.startsWith(root + '/')) return path.join(world.conf || world.root, spec.slice(root.length));
  }
  return spec;
}

function resolveFile (p) {
  if (isFile(p)) return p;
  for (const ext of ['.js', '.json']) if (isFile(p + ext)) return p + ext;
  if (isDir(p)) {
    const pkg = path.join(p, 'package.json');
    if (isFile(pkg)) {
      try {
        const main = JSON.parse(fs.readFileSync(pkg, 'utf8')).main;
        if (typeof main === 'string') { const m = resolveFile(path.resolve(p, main)); if (m) return m; }
      } catch (e) { /* a broken package.json: fall back to index.js as Node does */ }
    }
    if (isFile(path.join(p, 'index.js'))) return path.join(p, 'index.js');
  }
  return null;
}

/** CommonJS resolution as the add-on's GraalJS does (commonjs-require-cwd is automation/js/node_modules). */
function resolveModule (spec, fromFile, isScript) {
  spec = mapConfRoot(spec);
  const modulesRoot = path.join(world.conf || path.dirname(path.dirname(path.dirname(fromFile))), 'automation', 'js', 'node_modules');
  if (spec.startsWith('./') || spec.startsWith('../') || spec.startsWith('/')) {
    const base = spec.startsWith('/') ? spec : path.resolve(isScript ? modulesRoot : path.dirname(fromFile), spec);
    const found = resolveFile(base) || (isScript && !spec.startsWith('/') ? resolveFile(path.resolve(path.dirname(fromFile), spec)) : null);
    return found;
  }
  // bare name: node_modules folders upward from the module, then the conf's node_modules
  let dir = path.dirname(fromFile);
  while (inside(world.root, dir)) {
    const cand = resolveFile(path.join(dir, 'node_modules', spec));
    if (cand) return cand;
    const up = path.dirname(dir);
    if (up === dir) break;
    dir = up;
  }
  return resolveFile(path.join(modulesRoot, spec));
}

// ---------------------------------------------------------------- contexts

function makeRandom (seedText) {
  // xoshiro128** seeded from the scenario's seed and the file: the same file and seed give the same numbers.
  let a = hash32(seedText + '/a'), b = hash32(seedText + '/b'), c = hash32(seedText + '/c'), d = hash32(seedText + '/d') | 1;
  return function () {
    const t = b << 9; let r = Math.imul(b, 5); r = Math.imul((r << 7) | (r >>> 25), 9);
    c ^= a; d ^= b; b ^= c; a ^= d; c ^= t; d = (d << 11) | (d >>> 21);
    return (r >>> 0) / 4294967296;
  };
}

function runInFile (file, fn, arg, what) {
  file.call.fn = fn;
  file.call.arg = arg;
  try {
    // No vm timeout here: its watchdog thread costs ~150 µs a call. The twin waits budgetMs for the answer
    // and kills this process past it (rules.jsBudget); a load still runs under the vm timeout.
    return invoker.runInContext(file.context);
  } catch (e) {
    throw classify(e, file, what);
  }
}

function classify (e, file, what) {
  if (e instanceof TwinError) return e;
  if (e && e.code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') {
    return new TwinError('rules.jsBudget', `${what} ran longer than ${world.budgetMs} ms of wall time (a loop that never ends?); it was ended`, file.display);
  }
  if (e && typeof e.code === 'string' && /^rules\.js[A-Z]/.test(e.code) && e.code !== 'rules.jsBudget') {
    return new TwinError(e.code, e.message, e.location || locate(e, file) || file.display);
  }
  if (e && e.__twinUnsupported) return new TwinError('rules.jsUnsupported', e.message, locate(e, file) || file.display);
  if (e && e.name === 'RangeError' && /call stack/.test(e.message)) {
    return new TwinError('rules.jsRuntime', `${what} failed: ${e.message}`, locate(e, file) || file.display);
  }
  const message = e && e.message !== undefined ? `${e.name || 'Error'}: ${e.message}` : String(e);
  return new TwinError('rules.jsRuntime', `${what} failed: ${message}`, locate(e, file) || file.display);
}

/** The first stack frame in the user's files, as file:line. */
function locate (e, file) {
  const stack = e && typeof e.stack === 'string' ? e.stack : '';
  const re = /\(?([^\s()]+):(\d+):(\d+)\)?/g;
  let m;
  while ((m = re.exec(stack)) !== null) {
    if (m[1] === 'openhab-js (twin)' || m[1] === 'twin-invoke' || m[1].startsWith('node:')) continue;
    if (file.known.has(m[1])) return `${m[1]}:${m[2]}:${m[3]}`;
  }
  return null;
}

function createFileContext (abs, ui) {
  const name = ui ? ui.key : display(abs);
  const sandbox = Object.create(null);
  const context = vm.createContext(sandbox, { name, codeGeneration: { strings: true, wasm: false }, microtaskMode: 'afterEvaluate' });
  const file = { abs, display: name, sandbox, context, call: slotMaker.runInContext(context), modules: new Map(), known: new Set([name]), cache: new Map(), rules: [] };
  const host = {
    now: () => world.now,
    zone: world.zone,
    random: makeRandom(world.seed + '/' + name),
    file: name,
    ui: ui ? ui.rule : undefined,
    item: (n) => { const it = world.items.get(n); return it ? JSON.stringify(it) : undefined; },
    state: (n) => { const it = world.items.get(n); return it ? it.state : undefined; },
    itemNames: () => [...world.items.keys()].join('\n'),
    thing: (uid) => { if (!world.thingsLive) world.needsThings = true; return world.things.get(uid); },
    thingUIDs: () => { if (!world.thingsLive) world.needsThings = true; return [...world.things.keys()].join('\n'); },
    load: (p) => loadInto(file, p),
    emit: (json) => { world.effects.push(String(json)); },
    addRule: (json, fn) => {
      const spec = JSON.parse(json);
      if (world.rules.has(spec.id) && !spec.overwrite) throw new Error(`a rule with the UID "${spec.id}" already exists`);
      world.rules.set(spec.id, { file, fn, spec });
      file.rules.push(spec);
    },
    createTimer: (at, fn, interval, label) => {
      const id = world.nextTimer++;
      const rule = world.currentRule;
      world.timers.set(id, { file, fn, interval, at, label, rule });
      emit({ k: 'timer', id, at, label, rule });
      return id;
    },
    rescheduleTimer: (id, at) => {
      const t = world.timers.get(id);
      if (!t) return false;
      t.at = at;
      emit({ k: 'timer', id, at, label: t.label, rule: t.rule });
      return true;
    },
    cancelTimer: (id) => {
      if (!world.timers.has(id)) return false;
      world.timers.delete(id);
      emit({ k: 'cancel', id });
      return true;
    },
    timerActive: (id) => world.timers.has(id),
    require: (spec, from) => requireFrom(file, spec, from),
    sharedCache: world.shared,
    confDir: world.conf || world.root,
    // A question to the twin in the middle of a request (a persistence query): one message out, one answer in.
    ask: (json) => {
      writeMessage({ ask: JSON.parse(json) });
      const answer = readMessage();
      if (answer === null) process.exit(0);
      return JSON.stringify(answer);
    }
  };
  Object.defineProperty(sandbox, '__twinHost', { value: host, enumerable: false, configurable: true });
  library.runInContext(context, { timeout: world.budgetMs });
  return file;
}

/** Whether a source may read Things (then the twin keeps the mirror live). */
function notesThings (text) { if (!world.needsThings && /hing/.test(text)) world.needsThings = true; }

/** `load(path)`: a file evaluated in the caller's global scope, on each call (relative paths from the conf directory). */
function loadInto (file, spec) {
  const mapped = mapConfRoot(spec);
  const abs = path.isAbsolute(mapped) ? mapped : path.resolve(world.conf || world.root, mapped);
  if (!isFile(abs)) throw new TwinError('rules.jsRequire', `load('${spec}') finds no file (looked at ${display(abs)})`, callerLocation(file) || file.display);
  const name = display(abs);
  const text = readInside(abs, file.display);
  file.known.add(name);
  notesThings(text);
  return vm.runInContext(text, file.context, { filename: name });
}

/** The file:line:column of the script or module line that called into the host (a `require` or `load`), or null. */
function callerLocation (file) { return locate(new Error(), file); }

function requireFrom (file, spec, fromName) {
  if (spec === 'openhab' || spec === '@openhab/core') return file.sandbox.__openhab;
  if (spec === '@runtime') return file.sandbox.__twinRuntime;
  const fromAbs = fromName === file.display ? file.abs : path.join(world.root, fromName);
  const resolved = resolveModule(spec, fromAbs, fromName === file.display);
  if (!resolved) throw new TwinError('rules.jsRequire', `require('${spec}') resolves to nothing (looked relative to ${fromName} and in automation/js/node_modules)`, callerLocation(file) || fromName);
  const key = resolved;
  if (file.modules.has(key)) return file.modules.get(key).exports;
  const name = display(resolved);
  const text = readInside(resolved, fromName);
  const module = vm.runInContext('({ exports: {} })', file.context);
  file.modules.set(key, module);
  if (resolved.endsWith('.json')) {
    module.exports = vm.runInContext('JSON.parse', file.context)(text);
    return module.exports;
  }
  file.known.add(name);
  notesThings(text);
  const fn = vm.compileFunction(text, ['exports', 'require', 'module', '__filename', '__dirname'],
    { parsingContext: file.context, filename: name });
  const localRequire = file.sandbox.__twinMakeRequire(name);
  fn.call(module.exports, module.exports, localRequire, module, name, path.dirname(name));
  return module.exports;
}

// ---------------------------------------------------------------- requests

function syntaxLocation (e, name) {
  const stack = String(e.stack || '');
  const lines = stack.split('\n');
  const m = /^(.*):(\d+)$/.exec(lines[0]);
  if (!m) return name;
  let column = 1;
  if (lines.length > 2 && /^\s*\^+\s*$/.test(lines[2])) column = lines[2].indexOf('^') + 1;
  return `${m[1]}:${m[2]}:${column}`;
}

function load (msg) {
  const abs = path.resolve(world.root, msg.path);
  const file = createFileContext(abs);
  world.files.set(file.display, file);
  let text = typeof msg.source === 'string' ? msg.source : undefined;
  if (text === undefined) try { text = readInside(abs, file.display); } catch (e) {
    throw e instanceof TwinError ? e : new TwinError('rules.jsRequire', `cannot read ${file.display}: ${e.code || e.message}`, file.display);
  }
  file.path = msg.path; // as the twin names it (its line coverage)
  file.source = text;
  let script;
  try {
    script = new vm.Script(text, { filename: file.display });
  } catch (e) {
    throw new TwinError('rules.jsSyntax', `${e.name}: ${e.message}`, syntaxLocation(e, file.display));
  }
  file.script = script; // alive for its line coverage
  try {
    script.runInContext(file.context, { timeout: world.budgetMs });
  } catch (e) {
    throw classify(e, file, `loading ${file.display}`);
  }
  if (typeof file.sandbox.scriptLoaded === 'function') {
    runInFile(file, file.sandbox.scriptLoaded, file.display, `scriptLoaded() of ${file.display}`);
  }
  return { rules: file.rules, needsThings: world.needsThings };
}

function run (msg) {
  applyThings(msg.things);
  const rule = world.rules.get(msg.rule);
  if (!rule) throw new TwinError('rules.jsRuntime', `no JavaScript rule has the UID "${msg.rule}"`, null);
  const event = rule.file.sandbox.__twinEvent(JSON.stringify(msg.event || {}), typeof msg.args === 'string' ? msg.args : null);
  world.currentRule = rule.spec.id;
  try { runInFile(rule.file, rule.fn, event, `rule "${rule.spec.name}"`); } finally { world.currentRule = null; }
  return { needsThings: world.needsThings };
}

function fire (msg) {
  applyThings(msg.things);
  const timer = world.timers.get(msg.id);
  if (!timer) return {}; // cancelled while its kernel event was due
  if (timer.interval > 0) {
    timer.at = msg.now + timer.interval;
    emit({ k: 'timer', id: msg.id, at: timer.at, label: timer.label, rule: timer.rule });
  } else {
    world.timers.delete(msg.id);
  }
  world.currentRule = timer.rule;
  try { runInFile(timer.file, timer.fn, undefined, `${timer.label}`); } finally { world.currentRule = null; }
  return { needsThings: world.needsThings };
}

function unload () {
  for (const file of world.files.values()) {
    if (typeof file.sandbox.scriptUnloaded === 'function') {
      try { runInFile(file, file.sandbox.scriptUnloaded, undefined, `scriptUnloaded() of ${file.display}`); } catch (e) { /* logged below */ }
    }
  }
  return {};
}

// ---------------------------------------------------------------- UI rules' script modules

/**
 * A UI rule's `script.ScriptAction` / `script.ScriptCondition` of type application/javascript, as the add-on
 * runs it: its own context (openHAB makes one engine per script module, created on its first run), the
 * openhab-js globals injected, `ctx` and `ruleUID` set. An action runs wrapped in a function (the add-on's
 * default: `return` works, `event` is openhab-js's converted event); `'use wrapper=false'` in its first two
 * lines runs it unwrapped. A condition runs unwrapped, its last expression's value deciding, unless
 * `'use wrapper'` (or `'use wrapper=true'`) in its first two lines wraps it, then `return` decides.
 */
function wrapperDirective (source) {
  const lines = String(source).split('\n').slice(0, 2);
  for (const line of lines) {
    const m = /^\s*(['"])use wrapper(=(true|false))?\1\s*;?\s*$/.exec(line);
    if (m) return m[3] !== 'false';
  }
  return null;
}

const WRAP_HEAD = '(function () { const event = globalThis.__twinUIEventObject; ';

function compileModule (msg) {
  notesThings(msg.source);
  const directive = wrapperDirective(msg.source);
  const wrapped = msg.condition ? directive === true : directive !== false;
  const text = wrapped ? WRAP_HEAD + msg.source + '\n})()' : msg.source;
  try {
    return { script: new vm.Script(text, { filename: msg.key, columnOffset: wrapped ? -WRAP_HEAD.length : 0 }), wrapped };
  } catch (e) {
    throw new TwinError('rules.jsSyntax', `${e.name}: ${e.message}`, syntaxLocation(e, msg.key));
  }
}

/** Checks a module's syntax (at validation), without running it. */
function compile (msg) { compileModule(msg); return {}; }

function runModule (msg) {
  applyThings(msg.things);
  let mod = world.modules.get(msg.key);
  if (!mod) {
    if (typeof msg.source !== 'string') throw new TwinError('rules.jsProtocol', `the script module ${msg.key} was run before its code was sent`, null);
    const compiled = compileModule(msg);
    const abs = path.join(world.conf || world.root, 'automation', 'js', '__ui__', msg.rule);
    const file = createFileContext(abs, { key: msg.key, rule: msg.rule });
    mod = { file, script: compiled.script, wrapped: compiled.wrapped };
    world.modules.set(msg.key, mod);
  }
  const sandbox = mod.file.sandbox;
  const args = typeof msg.args === 'string' ? msg.args : null;
  const event = sandbox.__twinUIEvent(JSON.stringify(msg.event || {}), args);
  sandbox.__twinUIEventObject = event;
  sandbox.ctx = sandbox.__twinUICtx(JSON.stringify(msg.event || {}), msg.rule, args);
  sandbox.ruleUID = msg.rule;
  // openhab-core's setExecutionContext: every context entry is a global too (`name1` for ctx['name1']).
  if (args) { const values = sandbox.__twinUICtx('{}', msg.rule, args); for (const k of Object.keys(values)) if (k !== 'ruleUID' && !k.startsWith('__twin')) sandbox[k] = values[k]; }
  // Unwrapped, `event` is a global (openHAB: the raw Java event; here the converted object).
  if (!mod.wrapped) sandbox.event = msg.triggered ? event : undefined;
  world.currentRule = msg.rule;
  let value;
  try {
    value = mod.script.runInContext(mod.file.context);
  } catch (e) {
    throw classify(e, mod.file, `script ${msg.condition ? 'condition' : 'action'} of rule "${msg.rule}"`);
  } finally { world.currentRule = null; }
  if (!msg.condition) return { needsThings: world.needsThings };
  if (value === true || value === false) return { holds: value, needsThings: world.needsThings };
  // openHAB's ScriptConditionHandler: anything but a boolean is logged as an error and the condition fails.
  let shown;
  try { shown = value === undefined || value === null ? 'null' : String(value); } catch (e) { shown = typeof value; }
  return { holds: false, notBoolean: shown.slice(0, 200), needsThings: world.needsThings };
}

/** The Thing registry as the world starts (`things`), before files that name Things load. */
function thingsOp (msg) { applyThings(msg.things || {}); return {}; }

// ---------------------------------------------------------------- line coverage (`--coverage`)
//
// Two requests of their own, used only when the twin counts the rules' coverage: `coverageStart` (before the
// first `load`) turns on V8's precise block coverage (the inspector's Profiler domain, in this process, answered
// synchronously); `coverage` (at the run's end) answers, per file `load`ed, each line that holds a statement or
// a call (V8's possible breakpoints, the implicit returns left out) and how often it ran: the count of the
// innermost block or function around the line's first such place. V8 hands out counts since the last look and
// resets them, so they add up here and every `coverage` answers the totals.

const coverage = { session: null, totals: new Map() }; // display name → Map(line → count)

function inspect (method, params) {
  let failure = null, answer = null;
  coverage.session.post(method, params || {}, (e, r) => { failure = e; answer = r; });
  if (failure) throw new TwinError('rules.jsProtocol', `${method}: ${failure.message}`, null);
  return answer;
}

function coverageStart () {
  if (coverage.session) return {};
  const inspector = require('inspector');
  coverage.session = new inspector.Session();
  coverage.session.connect();
  inspect('Profiler.enable');
  inspect('Profiler.startPreciseCoverage', { callCount: true, detailed: true });
  return {};
}

function coverageTake () {
  if (!coverage.session) return { coverage: [] };
  const taken = inspect('Profiler.takePreciseCoverage').result;
  inspect('Debugger.enable');
  for (const file of world.files.values()) {
    if (typeof file.source !== 'string') continue;
    const totals = coverage.totals.get(file.display) || new Map();
    coverage.totals.set(file.display, totals);
    const starts = [0];
    for (let i = 0; i < file.source.length; i++) if (file.source.charCodeAt(i) === 10) starts.push(i + 1);
    for (const script of taken) {
      if (script.url !== file.display) continue;
      const ranges = [];
      for (const fn of script.functions) for (const r of fn.ranges) ranges.push(r);
      const places = inspect('Debugger.getPossibleBreakpoints',
        { start: { scriptId: script.scriptId, lineNumber: 0, columnNumber: 0 }, restrictToFunction: false }).locations;
      const first = new Map();
      for (const p of places) {
        if (p.type === 'return' || p.lineNumber >= starts.length) continue;
        const column = first.get(p.lineNumber);
        if (column === undefined || p.columnNumber < column) first.set(p.lineNumber, p.columnNumber);
      }
      for (const [line, column] of first) {
        const offset = starts[line] + column;
        let inner = null;
        for (const r of ranges) {
          if (r.startOffset <= offset && offset < r.endOffset && (!inner || r.endOffset - r.startOffset <= inner.endOffset - inner.startOffset)) inner = r;
        }
        totals.set(line + 1, (totals.get(line + 1) || 0) + (inner ? inner.count : 0));
      }
    }
  }
  inspect('Debugger.disable');
  const files = [];
  for (const file of world.files.values()) {
    const totals = coverage.totals.get(file.display);
    if (totals) files.push([file.path, [...totals].sort((a, b) => a[0] - b[0])]);
  }
  return { coverage: files };
}

const handlers = { init, load, run, fire, unload, compile, module: runModule, things: thingsOp, ping: () => ({}),
  coverageStart, coverage: coverageTake };

for (;;) {
  let msg;
  try { msg = readMessage(); } catch (e) { process.stderr.write(`twin host: unreadable request: ${e.message}\n`); process.exit(2); }
  if (msg === null) process.exit(0);
  if (world) { world.effects = []; if (typeof msg.now === 'number') world.now = msg.now; applyStates(msg.states); }
  const handler = handlers[msg.op];
  let reply;
  try {
    if (!handler) throw new TwinError('rules.jsProtocol', `unknown request "${msg.op}"`, null);
    if (msg.op !== 'init' && !world) throw new TwinError('rules.jsProtocol', 'no init before the first request', null);
    const result = handler(msg);
    const fields = JSON.stringify(result);
    reply = `{"ok":true,"effects":[${world ? world.effects.join(',') : ''}]${fields === '{}' ? '}' : `,${fields.slice(1)}`}`;
  } catch (e) {
    const err = e instanceof TwinError ? e : new TwinError('rules.jsRuntime', String(e && e.message), null);
    const fields = JSON.stringify({ ok: false, code: err.code, message: err.message, location: err.location || null });
    reply = `${fields.slice(0, -1)},"effects":[${world ? world.effects.join(',') : ''}]}`;
  }
  writeText(reply);
}
