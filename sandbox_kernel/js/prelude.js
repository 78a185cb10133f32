// The node-flavoured environment of %%js cells: console, display, timers, process, Buffer,
// fs, path, util, events, readline, require. Evaluated once per JS context as a module.
// Host calls go through two pseudo fds (see wasi.py): payload to DATA, JSON header to CTL.
import * as std from 'qjs:std';
import * as os from 'qjs:os';

const CTL = 1000, DATA = 1001, DATA_PATH = '/dev/fd/1001';
const ctlW = std.fdopen(CTL, 'w'), ctlR = std.fdopen(CTL, 'r');
const dataW = std.fdopen(DATA, 'w');
const hostState = { cjsResult: undefined, cwd: '/', exiting: false };
const { parse: jsonParse, stringify: jsonStringify } = JSON;  // user code may replace JSON's

// QuickJS's JSON.stringify finds cycles by scanning the path it is on: quadratic in the depth
// (a 1e5-deep array takes 25 s; it allows ~200 000 levels) in native code that never looks at
// the interrupt. So every stringify of user data passes a replacer, which QuickJS calls at each
// value: it follows the path (the holder of each value is `this`) and throws node's RangeError
// past MAX_JSON_DEPTH levels (V8 stops near there too). A user's replacer function runs first;
// a property list (array replacer) is applied by the same replacer: each plain object becomes
// one with the listed keys, in the list's order (a Proxy's ownKeys keeps integer keys in place).
const MAX_JSON_DEPTH = 10000;
const unboxers = [Number, String, Boolean, BigInt, Symbol].map(C => C.prototype.valueOf);
function isBoxed(v) {
  for (const valueOf of unboxers) { try { valueOf.call(v); return true; } catch {} }
  return false;
}
function propertyList(list) {
  const keys = new Set();
  for (let i = 0; i < list.length; i++) {
    const v = list[i];
    let key;
    if (typeof v === 'string') key = v;
    else if (typeof v === 'number' || (v !== null && typeof v === 'object' && isBoxed(v) &&
             (typeof v.valueOf() === 'string' || typeof v.valueOf() === 'number'))) key = String(v);
    if (key !== undefined) keys.add(key);
  }
  return [...keys];
}
function boundedStringify(value, replacer, space) {
  const fn = typeof replacer === 'function' ? replacer : null;
  const keys = !fn && Array.isArray(replacer) ? propertyList(replacer) : null;
  const inListOrder = keys && { ownKeys: () => keys };
  const path = [];  // the values being serialised, outermost first (the holders to come)
  // a property list picks into new objects, which QuickJS's own cycle check cannot follow:
  // the objects picked from, along the path, and those of them on it
  const sources = keys && [], onPath = keys && new Set();
  return jsonStringify(value, function (key, v) {
    if (fn) v = fn.call(this, key, v);
    let n = path.length;
    if (n && path[n - 1] !== this) {
      do n--; while (n && path[n - 1] !== this);
      if (keys) while (sources.length > n) onPath.delete(sources.pop());
      path.length = n;
    }
    if (typeof v === 'object' && v !== null) {
      if (n >= MAX_JSON_DEPTH) throw new RangeError('Maximum call stack size exceeded');
      if (keys) {
        const source = v;
        if (!Array.isArray(v) && !isBoxed(v)) {
          if (onPath.has(v)) throw new TypeError('circular reference');
          const listed = Object.create(null);  // a listed '__proto__' is a key like any other
          for (const k of keys) listed[k] = v[k];
          v = new Proxy(listed, inListOrder);
        }
        sources.push(source);
        onPath.add(source);
      }
      path.push(v);
    }
    return v;
  }, space);
}

function makeError(e) {
  const Ctor = { TypeError, RangeError, SyntaxError, ReferenceError, EvalError, URIError }[e.name] || Error;
  const err = new Ctor(e.message);
  if (e.stack) err.stack = e.stack + err.stack;  // where a required file failed to compile
  for (const k of ['code', 'errno', 'syscall', 'path', 'dest']) if (e[k] !== undefined) err[k] = e[k];
  return err;
}

// Call the host. payload: string | Uint8Array; want: 'value' | 'text' | 'bytes'.
function hostCall(op, args = {}, payload, want = 'value') {
  if (payload !== undefined) {
    if (typeof payload === 'string') dataW.puts(payload);
    else if (payload.byteLength) dataW.write(payload.buffer, payload.byteOffset, payload.byteLength);
    dataW.flush();
  }
  args.op = op;
  ctlW.puts(boundedStringify(args) + '\n');
  ctlW.flush();
  ctlR.clearerr();
  const reply = jsonParse(ctlR.readAsString());
  if (reply.error) throw makeError(reply.error);
  if (want === 'text') return reply.size ? std.loadFile(DATA_PATH) : '';
  if (want === 'bytes') {
    const buf = new ArrayBuffer(reply.size);
    let got = 0;
    while (got < reply.size) {
      const n = os.read(DATA, buf, got, reply.size - got);
      if (n <= 0) break;
      got += n;
    }
    return new Buffer(buf);
  }
  return reply.value;
}

// ---------------------------------------------------------------- UTF-8 and Buffer
function utf8Encode(s) {
  const out = [];
  for (let i = 0; i < s.length; i++) {
    let c = s.charCodeAt(i);
    if (c >= 0xd800 && c < 0xdc00 && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d < 0xe000) { c = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00); i++; }
      else c = 0xfffd;
    } else if (c >= 0xd800 && c < 0xe000) c = 0xfffd;
    if (c < 0x80) out.push(c);
    else if (c < 0x800) out.push(0xc0 | c >> 6, 0x80 | c & 63);
    else if (c < 0x10000) out.push(0xe0 | c >> 12, 0x80 | c >> 6 & 63, 0x80 | c & 63);
    else out.push(0xf0 | c >> 18, 0x80 | c >> 12 & 63, 0x80 | c >> 6 & 63, 0x80 | c & 63);
  }
  return out;
}

function utf8Decode(bytes, start = 0, end = bytes.length) {
  let s = '';
  const parts = [];
  for (let i = start; i < end;) {
    const b = bytes[i];
    let c = 0xfffd, n = 1;
    if (b < 0x80) c = b;
    else if (b >= 0xc2 && b < 0xe0 && i + 1 < end && (bytes[i + 1] & 0xc0) === 0x80) { c = (b & 31) << 6 | bytes[i + 1] & 63; n = 2; }
    else if (b >= 0xe0 && b < 0xf0 && i + 2 < end && (bytes[i + 1] & 0xc0) === 0x80 && (bytes[i + 2] & 0xc0) === 0x80) {
      c = (b & 15) << 12 | (bytes[i + 1] & 63) << 6 | bytes[i + 2] & 63; n = 3;
      if (c < 0x800 || (c >= 0xd800 && c < 0xe000)) c = 0xfffd;
    } else if (b >= 0xf0 && b < 0xf5 && i + 3 < end && (bytes[i + 1] & 0xc0) === 0x80 && (bytes[i + 2] & 0xc0) === 0x80 && (bytes[i + 3] & 0xc0) === 0x80) {
      c = (b & 7) << 18 | (bytes[i + 1] & 63) << 12 | (bytes[i + 2] & 63) << 6 | bytes[i + 3] & 63; n = 4;
      if (c < 0x10000 || c > 0x10ffff) c = 0xfffd;
    }
    s += String.fromCodePoint(c);
    i += n;
    if (s.length > 8192) { parts.push(s); s = ''; }
  }
  parts.push(s);
  return parts.join('');
}

// big conversions go through the host: QuickJS's own C code encodes (puts) and decodes (loadFile)
const HOST_CODEC_MIN = 4096;
function encodeUtf8(s) {
  return s.length >= HOST_CODEC_MIN ? hostCall('echo', {}, s, 'bytes') : new Uint8Array(utf8Encode(s));
}
function decodeUtf8(bytes) {
  return bytes.length >= HOST_CODEC_MIN ? hostCall('echo', {}, bytes, 'text') : utf8Decode(bytes);
}

class TextEncoder {
  get encoding() { return 'utf-8'; }
  encode(s = '') { return encodeUtf8(String(s)); }
  encodeInto(s, dest) {
    const bytes = this.encode(s);
    let written = 0, read = 0;
    for (const ch of String(s)) {  // whole characters only, like the spec
      const n = utf8Encode(ch).length;
      if (written + n > dest.length) break;
      written += n;
      read += ch.length;
    }
    dest.set(bytes.subarray(0, written));
    return { read, written };
  }
}
class TextDecoder {
  constructor(label = 'utf-8', options = {}) {
    if (!/^(utf-?8|unicode-1-1-utf-8)$/i.test(String(label).trim())) throw new RangeError(`The "${label}" encoding is not supported`);
    this.fatal = !!options.fatal;
    this.ignoreBOM = !!options.ignoreBOM;
  }
  get encoding() { return 'utf-8'; }
  decode(input) {
    if (input === undefined) return '';
    let bytes = toBytes(input);
    if (!this.ignoreBOM && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) bytes = bytes.subarray(3);
    const text = decodeUtf8(bytes);
    if (this.fatal && text.includes('\ufffd') && !hostCall('validUtf8', {}, bytes)) {
      throw Object.assign(new TypeError('The encoded data was not valid for encoding utf-8'), { code: 'ERR_ENCODING_INVALID_ENCODED_DATA' });
    }
    return text;
  }
}

function normEncoding(enc) {
  const e = String(enc || 'utf8').toLowerCase().replace('-', '');
  if (e === 'utf8') return 'utf8';
  if (e === 'binary' || e === 'latin1' || e === 'ascii') return 'latin1';
  if (e === 'hex' || e === 'base64' || e === 'base64url' || e === 'ucs2' || e === 'utf16le') return e;
  throw new TypeError(`Unknown encoding: ${enc}`);
}

class Buffer extends Uint8Array {
  static from(value, encOrOffset, length) {
    if (typeof value === 'string') {
      const enc = normEncoding(encOrOffset);
      if (enc === 'utf8') { const b = encodeUtf8(value); return new Buffer(b.buffer, b.byteOffset, b.length); }
      if (enc === 'latin1') return new Buffer(Array.from(value, ch => ch.charCodeAt(0) & 255));
      if (enc === 'hex') {
        const out = [];
        for (let i = 0; i + 1 < value.length; i += 2) {
          const b = parseInt(value.substr(i, 2), 16);
          if (Number.isNaN(b)) break;
          out.push(b);
        }
        return new Buffer(out);
      }
      if (enc === 'ucs2' || enc === 'utf16le') {
        const out = [];
        for (let i = 0; i < value.length; i++) { const c = value.charCodeAt(i); out.push(c & 255, c >> 8); }
        return new Buffer(out);
      }
      let b64 = value.replace(/[^A-Za-z0-9+/\-_]/g, '').replace(/-/g, '+').replace(/_/g, '/');
      while (b64.length % 4) b64 += '=';
      return new Buffer(Array.from(atob(b64), ch => ch.charCodeAt(0)));
    }
    if (value instanceof ArrayBuffer) return new Buffer(value, encOrOffset || 0, length ?? value.byteLength - (encOrOffset || 0));
    if (ArrayBuffer.isView(value)) return new Buffer(new Uint8Array(value.buffer, value.byteOffset, value.byteLength));
    if (Array.isArray(value)) return new Buffer(value);
    if (value && value.type === 'Buffer' && Array.isArray(value.data)) return new Buffer(value.data);
    throw new TypeError('The first argument must be a string, Buffer, ArrayBuffer, Array, or array-like object.');
  }
  static alloc(n, fill = 0) { const b = new Buffer(n); if (fill) b.fill(typeof fill === 'string' ? fill.charCodeAt(0) : fill); return b; }
  static allocUnsafe(n) { return new Buffer(n); }
  static isBuffer(b) { return b instanceof Buffer; }
  static byteLength(s, enc) { return typeof s === 'string' ? Buffer.from(s, enc).length : s.byteLength; }
  static concat(list, total) {
    total ??= list.reduce((n, b) => n + b.length, 0);
    const out = new Buffer(total);
    let pos = 0;
    for (const b of list) { if (pos >= total) break; out.set(b.subarray(0, total - pos), pos); pos += b.length; }
    return out;
  }
  static isEncoding(e) { try { normEncoding(e); return true; } catch { return false; } }
  toString(enc, start = 0, end = this.length) {
    enc = normEncoding(enc);
    const view = this.subarray(start, end);
    if (enc === 'utf8') return decodeUtf8(view);
    if (enc === 'latin1') { let s = ''; for (let i = 0; i < view.length; i += 8192) s += String.fromCharCode(...view.subarray(i, i + 8192)); return s; }
    if (enc === 'hex') return Array.from(view, b => b.toString(16).padStart(2, '0')).join('');
    if (enc === 'ucs2' || enc === 'utf16le') { let s = ''; for (let i = 0; i + 1 < view.length; i += 2) s += String.fromCharCode(view[i] | view[i + 1] << 8); return s; }
    let bin = '';
    for (let i = 0; i < view.length; i += 8192) bin += String.fromCharCode(...view.subarray(i, i + 8192));
    const b64 = btoa(bin);
    return enc === 'base64url' ? b64.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '') : b64;
  }
  toJSON() { return { type: 'Buffer', data: Array.from(this) }; }
  equals(other) { return this.length === other.length && this.every((b, i) => b === other[i]); }
  write(s, offset = 0) { const b = Buffer.from(s); this.set(b.subarray(0, this.length - offset), offset); return Math.min(b.length, this.length - offset); }
  slice(start, end) { return this.subarray(start, end); }
  subarray(start, end) { const v = Uint8Array.prototype.subarray.call(this, start, end); return new Buffer(v.buffer, v.byteOffset, v.length); }
  static get [Symbol.species]() { return Buffer; }
}

function toBytes(data, enc) {
  if (typeof data === 'string') return Buffer.from(data, enc);
  if (data instanceof Uint8Array) return data;
  if (ArrayBuffer.isView(data)) return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  if (data instanceof ArrayBuffer) return new Uint8Array(data);
  return Buffer.from(String(data));
}

// ---------------------------------------------------------------- inspect (node REPL style)
const kCustomInspect = Symbol.for('nodejs.util.inspect.custom');
const identRe = /^[A-Za-z_$][\w$]*$/;

function quote(s) {
  const q = !s.includes("'") ? "'" : !s.includes('"') ? '"' : !s.includes('`') ? '`' : "'";
  return q + s.replace(/[\\\n\t\r\b\f\v\0]/g, c => ({ '\\': '\\\\', '\n': '\\n', '\t': '\\t', '\r': '\\r', '\b': '\\b', '\f': '\\f', '\v': '\\v', '\0': '\\0' }[c]))
    .replace(new RegExp(q, 'g'), '\\' + q) + q;
}

function keyText(k) {
  if (typeof k === 'symbol') return `[${k.toString()}]`;
  return identRe.test(k) ? k : quote(k);
}

function className(v) {
  const proto = Object.getPrototypeOf(v);
  if (proto === null) return '[Object: null prototype]';
  const c = proto.constructor;
  return c && typeof c === 'function' ? c.name : 'Object';
}

function inspect(value, opts = {}) {
  const depth = opts.depth === undefined ? 2 : opts.depth === null ? Infinity : opts.depth;
  const seen = [];
  const circular = new Map();
  let currentDepth = 0;
  function fmt(v, level, indent) {
    switch (typeof v) {
      case 'string': return level === 0 && opts.topString === 'raw' ? v : quote(v);
      case 'number': return Object.is(v, -0) ? '-0' : String(v);
      case 'bigint': return `${v}n`;
      case 'undefined': return 'undefined';
      case 'boolean': return String(v);
      case 'symbol': return v.toString();
      case 'function': {
        const isClass = /^class\b/.test(Function.prototype.toString.call(v));
        const base = isClass ? `[class ${v.name || '(anonymous)'}]` : `[${fnKind(v)}${v.name ? ': ' + v.name : ' (anonymous)'}]`;
        const keys = Object.keys(v);
        if (!keys.length || level > depth) return base;
        currentDepth = level + 1;
        return wrap(base + ' {', keys.map(k => `${keyText(k)}: ${fmt(v[k], level + 1, indent + '  ')}`), '}', indent, false, level + 1, v);
      }
    }
    if (v === null) return 'null';
    if (seen.includes(v)) {
      if (!circular.has(v)) circular.set(v, circular.size + 1);
      return `[Circular *${circular.get(v)}]`;
    }
    if (typeof v[kCustomInspect] === 'function') {
      const r = v[kCustomInspect](depth - level, opts, inspect);
      if (typeof r === 'string') return r;
      return fmt(r, level, indent);
    }
    if (v instanceof Error) return errorText(v);
    if (v instanceof Date) return Number.isNaN(v.getTime()) ? 'Invalid Date' : v.toISOString();
    if (v instanceof RegExp) return String(v);
    if (v instanceof Promise) return 'Promise { <pending> }';
    if (v instanceof WeakMap) return 'WeakMap { <items unknown> }';
    if (v instanceof WeakSet) return 'WeakSet { <items unknown> }';
    if (typeof v === 'object' && (v instanceof Number || v instanceof String || v instanceof Boolean))
      return `[${className(v)}: ${fmt(v.valueOf(), level + 1, indent)}]`;
    const name = className(v);
    if (level > depth) {
      if (Array.isArray(v)) return v.length ? '[Array]' : '[]';
      if (name === 'Object' && !Reflect.ownKeys(v).length) return '{}';
      return `[${name === '[Object: null prototype]' ? 'Object: null prototype' : name}]`;
    }
    seen.push(v);
    const r = level + 1;
    try {
      const inner = indent + '  ';
      const items = [];
      let open, close = '}', isArrayLike = false;
      if (Array.isArray(v) || ArrayBuffer.isView(v) && !(v instanceof DataView)) {
        isArrayLike = true;
        currentDepth = r;
        const typed = !Array.isArray(v);
        open = typed || name !== 'Array' ? `${name}(${v.length}) [` : '[';
        if (v instanceof Buffer) open = '<Buffer';
        close = v instanceof Buffer ? '>' : ']';
        const max = v instanceof Buffer ? 50 : 100;
        let holes = 0;
        const n = Math.min(v.length, max);
        for (let i = 0; i < n; i++) {
          if (!typed && !Object.prototype.hasOwnProperty.call(v, i)) { holes++; continue; }
          if (holes) { items.push(`<${holes} empty item${holes > 1 ? 's' : ''}>`); holes = 0; }
          items.push(v instanceof Buffer ? v[i].toString(16).padStart(2, '0') : fmt(v[i], level + 1, inner));
        }
        if (holes) items.push(`<${holes} empty item${holes > 1 ? 's' : ''}>`);
        if (v.length > max) items.push(`... ${v.length - max} more item${v.length - max > 1 ? 's' : ''}`);
        if (v instanceof Buffer) return items.length ? `<Buffer ${items.join(' ')}>` : '<Buffer >';
        for (const k of Object.keys(v)) if (!/^\d+$/.test(k)) items.push(`${keyText(k)}: ${fmt(v[k], level + 1, inner)}`);
      } else if (v instanceof Map) {
        open = `Map(${v.size}) {`;
        if (v.size) currentDepth = r;
        for (const [k, x] of v) items.push(`${fmt(k, level + 1, inner)} => ${fmt(x, level + 1, inner)}`);
      } else if (v instanceof Set) {
        open = `Set(${v.size}) {`;
        if (v.size) currentDepth = r;
        for (const x of v) items.push(fmt(x, level + 1, inner));
      } else if (v instanceof ArrayBuffer) {
        const bytes = new Uint8Array(v);
        open = 'ArrayBuffer {';
        items.push(`[Uint8Contents]: <${Array.from(bytes.subarray(0, 50), b => b.toString(16).padStart(2, '0')).join(' ')}${bytes.length > 50 ? ` ... ${bytes.length - 50} more bytes` : ''}>`, `byteLength: ${v.byteLength}`);
      } else {
        open = name === 'Object' ? '{' : `${name} {`;
        const tag = v[Symbol.toStringTag];
        if (tag && typeof tag === 'string' && tag !== name) open = `${name} [${tag}] {`;
        if (Object.keys(v).length) currentDepth = r;
      }
      if (!(v instanceof ArrayBuffer) && !Array.isArray(v) && !ArrayBuffer.isView(v)) {
        for (const k of Reflect.ownKeys(v)) {
          const desc = Object.getOwnPropertyDescriptor(v, k);
          if (!desc.enumerable) continue;
          let shown;
          if (desc.get || desc.set) shown = desc.get && desc.set ? '[Getter/Setter]' : desc.get ? '[Getter]' : '[Setter]';
          else shown = fmt(desc.value, level + 1, inner);
          items.push(`${keyText(k)}: ${shown}`);
        }
      }
      let text;
      if (!items.length) text = open === '{' ? '{}' : open === '[' ? '[]' : `${open}${close}`;
      else text = wrap(open, items, close, indent, isArrayLike, r, v);
      if (circular.has(v)) text = `<ref *${circular.get(v)}> ${text}`;
      return text;
    } finally {
      seen.pop();
    }
  }
  // node's layout: an entry list goes on one line if it fits in 80 columns and the value
  // holds no objects nested 3 levels deeper (the last formatted one, as node tracks it)
  function wrap(open, items, close, indent, groupable, r, v) {
    let out = items;
    if (groupable && items.length > 6) out = groupItems(items, indent.length, v);
    if (currentDepth - r < 3 && out === items) {
      let total = out.length + (out.length + indent.length + open.length + 10);
      const fits = total + out.length <= 80 && out.every(s => (total += s.length) <= 80);
      const joined = out.join(', ');
      if (fits && !joined.includes('\n')) return `${open} ${joined} ${close}`;
    }
    return `${open}\n${indent}  ${out.join(`,\n${indent}  `)}\n${indent}${close}`;
  }
  return fmt(value, 0, '');
}

// node groups many short array entries into aligned columns
function groupItems(output, indentLvl, value) {
  let n = output.length;
  const more = /^\.\.\. \d+ more items?$/.test(output[n - 1]);
  if (more) n--;
  const lens = output.slice(0, n).map(s => s.length);
  const totalLength = lens.reduce((sum, len) => sum + len + 2, 0);
  const maxLength = Math.max(...lens);
  const actualMax = maxLength + 2;
  if (actualMax * 3 + indentLvl >= 80 || (totalLength / actualMax <= 5 && maxLength > 6)) return output;
  const bias = Math.sqrt(actualMax - totalLength / output.length);
  const biasedMax = Math.max(actualMax - 3 - bias, 1);
  const columns = Math.min(Math.round(Math.sqrt(2.5 * biasedMax * n) / biasedMax), Math.floor((80 - indentLvl) / actualMax), 12, 15);
  if (columns <= 1) return output;
  const widths = [];
  for (let c = 0; c < columns; c++) {
    let w = 0;
    for (let j = c; j < n; j += columns) w = Math.max(w, lens[j]);
    widths.push(w + 2);
  }
  let numeric = value !== undefined;
  for (let i = 0; numeric && i < output.length; i++) numeric = typeof value[i] === 'number' || typeof value[i] === 'bigint';
  const rows = [];
  for (let i = 0; i < n; i += columns) {
    const last = Math.min(i + columns, n) - 1;
    let line = '';
    for (let j = i; j < last; j++) line += numeric ? `${output[j]}, `.padStart(widths[j - i]) : `${output[j]}, `.padEnd(widths[j - i]);
    line += numeric ? output[last].padStart(widths[last - i] - 2) : output[last];
    rows.push(line);
  }
  if (more) rows.push(output[n]);
  return rows;
}

function fnKind(f) {
  const n = Object.prototype.toString.call(f);
  if (n === '[object AsyncFunction]') return 'AsyncFunction';
  if (n === '[object GeneratorFunction]') return 'GeneratorFunction';
  if (n === '[object AsyncGeneratorFunction]') return 'AsyncGeneratorFunction';
  return 'Function';
}

function errorText(e) {
  const head = `${e.name}${e.message !== '' ? ': ' + e.message : ''}`;
  const stack = typeof e.stack === 'string' ? e.stack.replace(/\n$/, '') : '';
  let text = stack ? `${head}\n${stack}` : `[${head}]`;
  const extra = Object.keys(e).filter(k => k !== 'stack' && k !== 'message');
  if (extra.length) text += ' {\n' + extra.map(k => `  ${keyText(k)}: ${inspect(e[k], { depth: 1 })}`).join(',\n') + '\n}';
  return text;
}

function format(...args) {
  let out = '';
  let i = 0;
  if (typeof args[0] === 'string') {
    const f = args[0];
    i = 1;
    let last = 0;
    // from one '%' to the next (a char-by-char loop took 3 s over a 4 MB string)
    for (let j = f.indexOf('%'); j !== -1 && j < f.length - 1; j = f.indexOf('%', j + 1)) {
      const c = f[j + 1];
      let rep;
      if (c === '%') rep = '%';
      else if (i < args.length && 'sdifjoOc'.includes(c)) {
        const a = args[i++];
        if (c === 's') rep = typeof a === 'string' ? a : typeof a === 'bigint' ? `${a}n` : typeof a === 'object' && a !== null ? inspect(a, { depth: 0 }) : String(a);
        else if (c === 'd' || c === 'i') rep = typeof a === 'bigint' ? `${a}n` : typeof a === 'object' ? 'NaN' : String(c === 'i' ? Math.trunc(Number(a)) : Number(a));
        else if (c === 'f') rep = String(parseFloat(a));
        else if (c === 'j') { try { rep = JSON.stringify(a); } catch { rep = '[Circular]'; } }
        else if (c === 'o' || c === 'O') rep = inspect(a, { depth: c === 'o' ? 4 : 2 });
        else rep = '';
      } else continue;
      out += f.slice(last, j) + rep;
      last = j + 2;
      j++;
    }
    out += f.slice(last);
  }
  for (; i < args.length; i++) {
    const a = args[i];
    out += (out || i > 0 ? ' ' : '') + (typeof a === 'string' ? a : inspect(a));
  }
  return out;
}

// ---------------------------------------------------------------- console
let groupIndent = '';
function writeOut(fd, text) {
  const f = fd === 1 ? std.out : std.err;
  f.puts(text);
  f.flush();
}
function logTo(fd) {
  return (...args) => {
    let text = format(...args);
    if (groupIndent) text = text.split('\n').map(l => groupIndent + l).join('\n');
    writeOut(fd, text + '\n');
  };
}
const counts = new Map(), timers = new Map();
const console = {
  log: logTo(1), info: logTo(1), debug: logTo(1),
  error: logTo(2), warn: logTo(2),
  trace(...args) { const e = new Error(); logTo(2)('Trace' + (args.length ? ': ' + format(...args) : '') + '\n' + String(e.stack).split('\n').slice(1).join('\n').replace(/\n$/, '')); },
  dir(v, o) { logTo(1)(inspect(v, o)); },
  assert(ok, ...args) { if (!ok) logTo(2)(args.length ? 'Assertion failed: ' + format(...args) : 'Assertion failed'); },
  count(label = 'default') { const n = (counts.get(label) || 0) + 1; counts.set(label, n); logTo(1)(`${label}: ${n}`); },
  countReset(label = 'default') { counts.set(label, 0); },
  time(label = 'default') { timers.set(label, performance.now()); },
  timeLog(label = 'default', ...args) { if (!timers.has(label)) return logTo(2)(`Warning: No such label '${label}' for console.timeLog()`); logTo(1)(`${label}: ${elapsed(timers.get(label))}`, ...args); },
  timeEnd(label = 'default') { if (!timers.has(label)) return logTo(2)(`Warning: No such label '${label}' for console.timeEnd()`); logTo(1)(`${label}: ${elapsed(timers.get(label))}`); timers.delete(label); },
  group(...args) { if (args.length) logTo(1)(...args); groupIndent += '  '; },
  groupEnd() { groupIndent = groupIndent.slice(2); },
  table(data, columns) { if (data === null || typeof data !== 'object') return logTo(1)(data); logTo(1)(table(data, columns)); },
};
console.groupCollapsed = console.group;
function elapsed(start) {
  const ms = performance.now() - start;
  return ms < 1000 ? `${ms.toFixed(3)}ms` : `${(ms / 1000).toFixed(3)}s`;
}

function table(data, columns) {
  const rows = data instanceof Map ? [...data.entries()].map(([k, v]) => [k, v]) : Object.entries(data);
  const indexHeader = data instanceof Map ? '(iteration index)' : '(index)';
  const cols = [];
  let hasValues = false;
  for (const [, v] of rows) {
    if (v !== null && typeof v === 'object') { for (const k of Object.keys(v)) if (!cols.includes(k)) cols.push(k); }
    else hasValues = true;
  }
  const shownCols = columns || cols;
  const header = [indexHeader, ...shownCols, ...(hasValues ? ['Values'] : [])];
  const cell = v => v === undefined ? '' : typeof v === 'string' ? quote(v) : inspect(v, { depth: 0 });
  const body = rows.map(([k, v]) => [String(k), ...shownCols.map(c => v !== null && typeof v === 'object' ? cell(v[c]) : ''),
    ...(hasValues ? [v !== null && typeof v === 'object' ? '' : cell(v)] : [])]);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map(r => r[i].length)) + 2);
  const center = (s, w) => { const left = Math.floor((w - s.length) / 2); return ' '.repeat(left) + s + ' '.repeat(w - s.length - left); };
  const line = (l, m, r) => l + widths.map(w => '─'.repeat(w)).join(m) + r;
  return [line('┌', '┬', '┐'), '│' + header.map((h, i) => center(h, widths[i])).join('│') + '│', line('├', '┼', '┤'),
    ...body.map(r => '│' + r.map((c, i) => center(c, widths[i])).join('│') + '│'), line('└', '┴', '┘')].join('\n');
}

// ---------------------------------------------------------------- display
function display(value, opts = {}) {
  let data;
  if (value !== null && typeof value === 'object' && typeof value._toMimeBundle === 'function') data = value._toMimeBundle();
  else data = { 'text/plain': typeof value === 'string' ? value : inspect(value) };
  sendDisplay(data, opts);
}
function sendDisplay(data, opts = {}) {
  hostCall('display', { data, metadata: opts.metadata || {}, display_id: opts.id ?? opts.display_id ?? null, update: !!opts.update });
}
display.html = (html, opts) => sendDisplay({ 'text/html': String(html), 'text/plain': '<HTML>' }, opts);
display.markdown = (md, opts) => sendDisplay({ 'text/markdown': String(md), 'text/plain': String(md) }, opts);
display.svg = (svg, opts) => sendDisplay({ 'image/svg+xml': String(svg), 'text/plain': '<SVG>' }, opts);
display.png = (img, opts) => sendDisplay({ 'image/png': typeof img === 'string' ? img : Buffer.from(toBytes(img)).toString('base64'), 'text/plain': '<PNG image>' }, opts);
display.jpeg = (img, opts) => sendDisplay({ 'image/jpeg': typeof img === 'string' ? img : Buffer.from(toBytes(img)).toString('base64'), 'text/plain': '<JPEG image>' }, opts);
display.json = (obj, opts) => sendDisplay({ 'application/json': JSON.parse(JSON.stringify(obj)), 'text/plain': inspect(obj) }, opts);
display.text = (text, opts) => sendDisplay({ 'text/plain': String(text) }, opts);
display.mime = (bundle, opts) => sendDisplay(bundle, opts);

// ---------------------------------------------------------------- timers
// Timers run in due-time order (then creation order), one callback per loop turn so promise
// jobs run between them, as in node: quickjs-libc fires expired timers in the order they were
// made, so a late loop ran setTimeout(f, 20) before an overdue setTimeout(g, 0). One qjs:os
// timer (the wake) is armed for the earliest entry of a heap ordered by (due, seq).
const liveTimers = new Map();   // id -> {id, ref, ms, due, seq, fn, args, repeat}; cleared when a run is stopped
const timerHeap = [];           // entries, lazily deleted: one no longer in liveTimers (or re-queued) is skipped
let nextTimerId = 1, timerSeq = 0, wakeHandle = null, wakeDue = Infinity;
const timerNow = performance.now.bind(performance);  // captured: a cell may replace performance
const earlier = (a, b) => a.due < b.due || (a.due === b.due && a.seq < b.seq);
function heapPush(item) {
  let i = timerHeap.push(item) - 1;
  while (i > 0) {
    const up = (i - 1) >> 1;
    if (!earlier(timerHeap[i], timerHeap[up])) break;
    [timerHeap[i], timerHeap[up]] = [timerHeap[up], timerHeap[i]];
    i = up;
  }
}
function heapPop() {
  const top = timerHeap[0], last = timerHeap.pop();
  if (timerHeap.length) {
    timerHeap[0] = last;
    for (let i = 0; ;) {
      const l = 2 * i + 1, r = l + 1;
      let m = i;
      if (l < timerHeap.length && earlier(timerHeap[l], timerHeap[m])) m = l;
      if (r < timerHeap.length && earlier(timerHeap[r], timerHeap[m])) m = r;
      if (m === i) break;
      [timerHeap[i], timerHeap[m]] = [timerHeap[m], timerHeap[i]];
      i = m;
    }
  }
  return top;
}
function nextTimer() {  // the earliest live entry, dropping stale heap items
  while (timerHeap.length) {
    const item = timerHeap[0];
    if (liveTimers.get(item.entry.id) === item.entry && item.entry.seq === item.seq) return item;
    heapPop();
  }
  return null;
}
function queueTimer(entry, now) {
  entry.due = now + entry.ms;
  entry.seq = timerSeq++;
  heapPush({ due: entry.due, seq: entry.seq, entry });
}
function armWake() {
  const item = nextTimer();
  if (!item) {
    if (wakeHandle !== null) { os.clearTimeout(wakeHandle); wakeHandle = null; wakeDue = Infinity; }
    return;
  }
  if (wakeHandle !== null && wakeDue <= item.due) return;
  if (wakeHandle !== null) os.clearTimeout(wakeHandle);
  wakeDue = item.due;
  wakeHandle = os.setTimeout(onWake, Math.max(0, Math.ceil(item.due - timerNow())));
}
function onWake() {
  wakeHandle = null; wakeDue = Infinity;
  const now = timerNow(), item = nextTimer();
  if (!item || item.due > now) { armWake(); return; }
  heapPop();
  const entry = item.entry;
  if (entry.repeat) queueTimer(entry, now);
  else liveTimers.delete(entry.id);
  armWake();  // before the callback: a throwing callback leaves the rest queued
  entry.fn(...entry.args);
}
class Timeout {
  constructor(id) { this.id = id; }
  ref() { const t = liveTimers.get(this.id); if (t) t.ref = true; return this; }
  unref() { const t = liveTimers.get(this.id); if (t) t.ref = false; return this; }  // does not keep a run alive
  hasRef() { const t = liveTimers.get(this.id); return !!t && t.ref; }
  refresh() { const t = liveTimers.get(this.id); if (t) { queueTimer(t, timerNow()); armWake(); } return this; }
  close() { clearTimer(this); return this; }
  [Symbol.toPrimitive]() { return this.id; }
}
function schedule(fn, ms, args, repeat) {
  if (typeof fn !== 'function') throw new TypeError('The "callback" argument must be of type function. Received ' + inspect(fn));
  const id = nextTimerId++;
  const entry = { id, ref: true, ms: Math.max(1, +ms || 0), due: 0, seq: 0, fn, args, repeat };
  liveTimers.set(id, entry);
  queueTimer(entry, timerNow());
  armWake();
  return new Timeout(id);
}
const setTimeout = (fn, ms, ...args) => schedule(fn, ms, args, false);
const setInterval = (fn, ms, ...args) => schedule(fn, ms, args, true);
function clearTimer(t) {
  const id = t !== null && typeof t === 'object' ? t.id : Number(t);
  if (liveTimers.delete(id)) armWake();
}
function cancelAllTimers() {
  const n = liveTimers.size;
  liveTimers.clear();
  timerHeap.length = 0;
  armWake();
  return n;
}

// ---------------------------------------------------------------- path (POSIX)
function normalizeParts(parts, absolute) {
  const out = [];
  for (const p of parts) {
    if (!p || p === '.') continue;
    if (p === '..') { if (out.length && out[out.length - 1] !== '..') out.pop(); else if (!absolute) out.push('..'); }
    else out.push(p);
  }
  return out;
}
function checkPath(p, name = 'path') {
  if (typeof p !== 'string') throw new TypeError(`The "${name}" argument must be of type string. Received ${inspect(p)}`);
}
const path = {
  sep: '/', delimiter: ':',
  normalize(p) {
    checkPath(p);
    if (p === '') return '.';
    const abs = p.startsWith('/');
    const trailing = p.endsWith('/');
    let s = normalizeParts(p.split('/'), abs).join('/');
    if (!s && !abs) s = '.';
    if (s && trailing) s += '/';
    return (abs ? '/' : '') + s;
  },
  join(...parts) { parts.forEach(p => checkPath(p)); const j = parts.filter(Boolean).join('/'); return j ? path.normalize(j) : '.'; },
  resolve(...parts) {
    let r = '';
    for (let i = parts.length - 1; i >= 0 && !r.startsWith('/'); i--) { checkPath(parts[i]); if (parts[i]) r = parts[i] + (r ? '/' + r : ''); }
    if (!r.startsWith('/')) r = process.cwd() + (r ? '/' + r : '');
    return '/' + normalizeParts(r.split('/'), true).join('/');
  },
  isAbsolute(p) { checkPath(p); return p.startsWith('/'); },
  dirname(p) {
    checkPath(p);
    if (!p) return '.';
    const s = p.replace(/\/+$/, '');
    if (!s) return '/';
    const i = s.lastIndexOf('/');
    if (i < 0) return '.';
    return s.slice(0, i).replace(/\/+$/, '') || '/';
  },
  basename(p, ext) {
    checkPath(p);
    const s = p.replace(/\/+$/, '');
    let b = s.slice(s.lastIndexOf('/') + 1);
    if (ext && b.endsWith(ext) && b !== ext) b = b.slice(0, -ext.length);
    return b;
  },
  extname(p) {
    checkPath(p);
    const b = path.basename(p);
    const i = b.lastIndexOf('.');
    return i <= 0 ? '' : b.slice(i);
  },
  relative(from, to) {
    const f = path.resolve(from).split('/').filter(Boolean), t = path.resolve(to).split('/').filter(Boolean);
    let i = 0;
    while (i < f.length && i < t.length && f[i] === t[i]) i++;
    return [...Array(f.length - i).fill('..'), ...t.slice(i)].join('/');
  },
  parse(p) {
    checkPath(p);
    const root = p.startsWith('/') ? '/' : '';
    const base = path.basename(p), ext = path.extname(p);
    let dir = path.dirname(p);
    if (dir === '.' && !p.includes('/')) dir = '';
    return { root, dir, base, ext, name: ext ? base.slice(0, -ext.length) : base };
  },
  format(o) { const dir = o.dir || o.root || ''; const base = o.base || (o.name || '') + (o.ext || ''); return dir ? (dir.endsWith('/') ? dir + base : dir + '/' + base) : base; },
  toNamespacedPath(p) { return p; },
};
path.posix = path;

// ---------------------------------------------------------------- process
function absPath(p) {
  if (typeof URL !== 'undefined' && p instanceof URL) p = p.pathname;
  if (p instanceof Uint8Array) p = Buffer.from(p).toString();
  checkPath(p);
  return path.resolve(p);
}
class Emitter {
  constructor() { this._events = new Map(); }
  on(ev, fn) { if (!this._events.has(ev)) this._events.set(ev, []); this._events.get(ev).push(fn); if (this._onListen) this._onListen(ev); return this; }
  addListener(ev, fn) { return this.on(ev, fn); }
  prependListener(ev, fn) { this.on(ev, fn); const l = this._events.get(ev); l.unshift(l.pop()); return this; }
  once(ev, fn) { const w = (...a) => { this.off(ev, w); fn.apply(this, a); }; w.listener = fn; return this.on(ev, w); }
  off(ev, fn) { const l = this._events.get(ev); if (l) { const i = l.findIndex(x => x === fn || x.listener === fn); if (i >= 0) l.splice(i, 1); } return this; }
  removeListener(ev, fn) { return this.off(ev, fn); }
  removeAllListeners(ev) { if (ev === undefined) this._events.clear(); else this._events.delete(ev); return this; }
  emit(ev, ...args) {
    const l = this._events.get(ev);
    if (!l || !l.length) { if (ev === 'error') throw args[0]; return false; }
    for (const fn of [...l]) fn.apply(this, args);
    return true;
  }
  listenerCount(ev) { return (this._events.get(ev) || []).length; }
  listeners(ev) { return [...(this._events.get(ev) || [])].map(f => f.listener || f); }
  eventNames() { return [...this._events.keys()].filter(k => this._events.get(k).length); }
  setMaxListeners() { return this; }
}

class StdinStream extends Emitter {
  constructor() {
    super();
    this.encoding = null;
    this.fd = 0;
    this.isTTY = false;
    this.flowing = false;
    this.ended = false;
    this._onListen = ev => { if (ev === 'data' || ev === 'readable' || ev === 'end') this.resume(); };
  }
  setEncoding(enc) { this.encoding = enc; return this; }
  _chunk() {
    if (this.ended) return null;
    const b = hostCall('stdin', { size: 65536 }, undefined, 'bytes');
    if (!b.length) { this.ended = true; return null; }
    return this.encoding ? b.toString(this.encoding) : b;
  }
  read() { return this._chunk(); }
  resume() {
    if (this.flowing) return this;
    this.flowing = true;
    const pump = () => {
      if (!this.flowing) return;
      const c = this._chunk();
      if (c === null) { this.flowing = false; this.emit('end'); this.emit('close'); return; }
      this.emit('data', c);
      setTimeout(pump, 0);
    };
    setTimeout(pump, 0);
    return this;
  }
  pause() { this.flowing = false; return this; }
  pipe(dest) { this.on('data', c => dest.write(c)); if (dest !== process.stdout && dest !== process.stderr && dest.end) this.on('end', () => dest.end()); return dest; }
  async *[Symbol.asyncIterator]() { for (let c; (c = this._chunk()) !== null;) yield c; }
}

function makeWritable(fd) {
  const w = new Emitter();
  Object.assign(w, {
    fd, isTTY: false, columns: 80,
    write(chunk, enc, cb) {
      if (typeof enc === 'function') { cb = enc; enc = undefined; }
      const f = fd === 1 ? std.out : std.err;
      if (typeof chunk === 'string') f.puts(chunk);
      else { const b = toBytes(chunk); f.write(b.buffer, b.byteOffset, b.byteLength); }
      f.flush();
      if (cb) queueMicrotask(cb);
      return true;
    },
    end(chunk, cb) { if (chunk !== undefined && typeof chunk !== 'function') this.write(chunk); if (typeof chunk === 'function') cb = chunk; if (cb) queueMicrotask(cb); },
  });
  return w;
}

const startTime = performance.now();
const process = new Emitter();
Object.assign(process, {
  argv: ['/usr/bin/node'], argv0: 'node', execArgv: [], execPath: '/usr/bin/node',
  exitCode: undefined, pid: 1, ppid: 0, platform: 'linux', arch: 'wasm32',
  title: 'node', version: 'v22.0.0', release: { name: 'node' },
  versions: { node: '22.0.0', quickjs: 'quickjs-ng (wasm32-wasi)' },
  stdin: new StdinStream(), stdout: makeWritable(1), stderr: makeWritable(2),
  cwd() { return hostState.cwd; },
  chdir(dir) {
    const target = absPath(dir);
    hostCall('chdir', { path: target });
    hostState.cwd = target;
    os.chdir(target);
  },
  exit(code) {
    if (code !== undefined) process.exitCode = code;
    const status = (process.exitCode ?? 0) | 0;
    if (!hostState.exiting) { hostState.exiting = true; try { process.emit('exit', status); } catch {} }
    hostCall('exit', { code: status });
    for (;;) {}  // the host has requested an interrupt; this loop ends at its first check
  },
  abort() { process.exit(134); },
  nextTick(fn, ...args) { queueMicrotask(() => fn(...args)); },
  hrtime(prev) {
    const ns = Math.round(performance.now() * 1e6);
    let s = Math.floor(ns / 1e9), n = ns % 1e9;
    if (prev) { s -= prev[0]; n -= prev[1]; if (n < 0) { s--; n += 1e9; } }
    return [s, n];
  },
  uptime() { return (performance.now() - startTime) / 1000; },
  memoryUsage() { const m = hostCall('memory'); return { rss: m.memory, heapTotal: m.memory, heapUsed: m.memory, external: 0, arrayBuffers: 0 }; },
  umask() { return 0o022; },
  getuid() { return 1000; }, getgid() { return 1000; }, geteuid() { return 1000; },
  emitWarning(msg) { logTo(2)(`(node) Warning: ${msg}`); },
});
process.hrtime.bigint = () => BigInt(Math.round(performance.now() * 1e6));
// process.env is fetched on first use: asking the shell for it may start the shell engine
let processEnv = null;
Object.defineProperty(process, 'env', {
  get() { if (processEnv === null) processEnv = hostCall('env'); return processEnv; },
  set(v) { processEnv = v; },
  enumerable: true, configurable: true,
});

// ---------------------------------------------------------------- fs
function fsCall(op, p, extra = {}, payload, want) {
  return hostCall(op, { path: absPath(p), ...extra }, payload, want);
}
function encodingOf(opts) { return typeof opts === 'string' ? opts : opts && opts.encoding ? opts.encoding : null; }
function decodeResult(buf, enc) {
  if (!enc || enc === 'buffer') return buf;
  return buf.toString(enc);
}

class Stats {
  constructor(s) { Object.assign(this, s); for (const k of ['atime', 'mtime', 'ctime', 'birthtime']) this[k] = new Date(s[k + 'Ms']); }
  isFile() { return (this.mode & 0o170000) === 0o100000; }
  isDirectory() { return (this.mode & 0o170000) === 0o040000; }
  isSymbolicLink() { return (this.mode & 0o170000) === 0o120000; }
  isCharacterDevice() { return (this.mode & 0o170000) === 0o020000; }
  isBlockDevice() { return false; }
  isFIFO() { return false; }
  isSocket() { return false; }
}
class Dirent {
  constructor(name, mode, parent) { this.name = name; this.parentPath = parent; this.path = parent; Object.defineProperty(this, '_mode', { value: mode }); }
  isFile() { return (this._mode & 0o170000) === 0o100000; }
  isDirectory() { return (this._mode & 0o170000) === 0o040000; }
  isSymbolicLink() { return (this._mode & 0o170000) === 0o120000; }
  isCharacterDevice() { return (this._mode & 0o170000) === 0o020000; }
  isBlockDevice() { return false; }
  isFIFO() { return false; }
  isSocket() { return false; }
}

function isStdinPath(p) { return p === 0 || p === '/dev/stdin' || p === '/dev/fd/0'; }
function readAllStdin() {
  const parts = [];
  for (let c; (c = hostCall('stdin', { size: 1 << 20 }, undefined, 'bytes')).length;) parts.push(c);
  return Buffer.concat(parts);
}
function writeTarget(p) { return p === 1 || p === '/dev/stdout' ? 1 : p === 2 || p === '/dev/stderr' ? 2 : 0; }

const fs = {
  constants: { F_OK: 0, R_OK: 4, W_OK: 2, X_OK: 1, COPYFILE_EXCL: 1, O_RDONLY: 0, O_WRONLY: 1, O_RDWR: 2, O_CREAT: 64, O_EXCL: 128, O_TRUNC: 512, O_APPEND: 1024 },
  Stats, Dirent,
  readFileSync(p, opts) {
    const enc = encodingOf(opts);
    if (typeof p === 'number' && p !== 0) return decodeResult(fdRead(p), enc);
    if (isStdinPath(p)) return decodeResult(readAllStdin(), enc);
    const flag = opts && typeof opts === 'object' && opts.flag;
    if (enc && normEncoding(enc) === 'utf8') return fsCall('readFile', p, { flag }, undefined, 'text');
    return decodeResult(fsCall('readFile', p, { flag }, undefined, 'bytes'), enc);
  },
  writeFileSync(p, data, opts) {
    const enc = encodingOf(opts) || 'utf8';
    const flag = (opts && typeof opts === 'object' && opts.flag) || 'w';
    const mode = opts && typeof opts === 'object' && opts.mode;
    const target = writeTarget(p);
    if (target) return process[target === 1 ? 'stdout' : 'stderr'].write(typeof data === 'string' ? data : toBytes(data));
    if (typeof p === 'number') return fdWrite(p, toBytes(data, enc));
    const payload = typeof data === 'string' && normEncoding(enc) === 'utf8' ? data : toBytes(data, enc);
    fsCall('writeFile', p, { flag, mode }, payload);
  },
  appendFileSync(p, data, opts) {
    const o = typeof opts === 'string' ? { encoding: opts } : { ...(opts || {}) };
    o.flag = o.flag || 'a';
    fs.writeFileSync(p, data, o);
  },
  existsSync(p) { try { return fsCall('exists', p); } catch { return false; } },
  accessSync(p, mode = 0) { fsCall('access', p, { mode }); },
  readdirSync(p, opts) {
    const o = typeof opts === 'string' ? { encoding: opts } : opts || {};
    const entries = fsCall('readdir', p, { recursive: !!o.recursive });
    const dir = absPath(p);
    if (o.withFileTypes) return entries.map(([name, mode]) => { const full = dir.replace(/\/$/, '') + '/' + name; return new Dirent(path.basename(name), mode, path.dirname(full)); });
    return entries.map(([name]) => name);
  },
  mkdirSync(p, opts) {
    const o = typeof opts === 'number' ? { mode: opts } : opts || {};
    return fsCall('mkdir', p, { recursive: !!o.recursive, mode: o.mode ?? 0o777 }) ?? undefined;
  },
  mkdtempSync(prefix) { return hostCall('mkdtemp', { prefix: absPath(prefix) }); },
  statSync(p, opts) {
    try { return new Stats(fsCall('stat', p, { follow: true })); }
    catch (e) { if (opts && opts.throwIfNoEntry === false && e.code === 'ENOENT') return undefined; throw e; }
  },
  lstatSync(p, opts) {
    try { return new Stats(fsCall('stat', p, { follow: false })); }
    catch (e) { if (opts && opts.throwIfNoEntry === false && e.code === 'ENOENT') return undefined; throw e; }
  },
  unlinkSync(p) { fsCall('unlink', p); },
  rmdirSync(p, opts) { fsCall('rmdir', p, { recursive: !!(opts && opts.recursive) }); },
  rmSync(p, opts) { fsCall('rm', p, { recursive: !!(opts && opts.recursive), force: !!(opts && opts.force) }); },
  renameSync(a, b) { hostCall('rename', { path: absPath(a), dest: absPath(b) }); },
  copyFileSync(a, b, mode = 0) { hostCall('copyFile', { path: absPath(a), dest: absPath(b), excl: !!(mode & 1) }); },
  cpSync(a, b, opts = {}) { hostCall('cp', { path: absPath(a), dest: absPath(b), recursive: !!opts.recursive, force: opts.force !== false, errorOnExist: !!opts.errorOnExist }); },
  symlinkSync(target, p) { hostCall('symlink', { target: String(target), path: absPath(p) }); },
  linkSync(a, b) { hostCall('link', { path: absPath(a), dest: absPath(b) }); },
  readlinkSync(p) { return fsCall('readlink', p); },
  realpathSync(p) { return fsCall('realpath', p); },
  chmodSync(p, mode) { fsCall('chmod', p, { mode: typeof mode === 'string' ? parseInt(mode, 8) : mode }); },
  chownSync(p, uid, gid) { fsCall('chown', p, { uid, gid }); },
  utimesSync(p, atime, mtime) { const t = x => x instanceof Date ? x.getTime() / 1000 : +x; fsCall('utimes', p, { atime: t(atime), mtime: t(mtime) }); },
  truncateSync(p, len = 0) { fsCall('truncate', p, { size: len }); },
  openSync(p, flags = 'r', mode = 0o666) { return fsCall('open', p, { flags: String(flags), mode }); },
  closeSync(fd) { hostCall('close', { fd }); },
  fstatSync(fd) { return new Stats(hostCall('fstat', { fd })); },
  readSync(fd, buffer, offsetOrOpts = 0, length, position = null) {
    let offset = offsetOrOpts;
    if (typeof offsetOrOpts === 'object' && offsetOrOpts !== null) ({ offset = 0, length, position = null } = offsetOrOpts);
    length ??= buffer.byteLength - offset;
    const data = fd === 0 ? hostCall('stdin', { size: length }, undefined, 'bytes') : hostCall('read', { fd, size: length, position }, undefined, 'bytes');
    new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength).set(data, offset);
    return data.length;
  },
  writeSync(fd, data, offsetOrPos, lengthOrEnc, position) {
    let bytes;
    if (typeof data === 'string') { bytes = Buffer.from(data, typeof lengthOrEnc === 'string' ? lengthOrEnc : 'utf8'); position = offsetOrPos; }
    else { const b = toBytes(data); const off = offsetOrPos || 0; bytes = b.subarray(off, lengthOrEnc === undefined ? b.length : off + lengthOrEnc); }
    if (fd === 1 || fd === 2) { process[fd === 1 ? 'stdout' : 'stderr'].write(bytes); return bytes.length; }
    return hostCall('write', { fd, position: position ?? null }, bytes);
  },
  ftruncateSync(fd, len = 0) { hostCall('ftruncate', { fd, size: len }); },
  fsyncSync() {},
  watch() { throw makeError({ name: 'Error', code: 'ENOSYS', message: 'fs.watch is not supported in the sandbox' }); },
};
function fdRead(fd) { const parts = []; for (let c; (c = hostCall('read', { fd, size: 1 << 20, position: null }, undefined, 'bytes')).length;) parts.push(c); return Buffer.concat(parts); }
function fdWrite(fd, bytes) { return hostCall('write', { fd, position: null }, bytes); }

// promise and callback flavours of every *Sync function
fs.promises = {};
for (const name of Object.keys(fs)) {
  if (!name.endsWith('Sync') || name === 'existsSync') continue;
  const base = name.slice(0, -4);
  const sync = fs[name];
  fs.promises[base] = async (...args) => sync(...args);
  fs[base] = (...args) => {
    const cb = typeof args[args.length - 1] === 'function' ? args.pop() : null;
    let result, error = null;
    try { result = sync(...args); } catch (e) { error = e; }
    if (cb) queueMicrotask(() => cb(error, result));
    else if (error) throw error;
  };
}
fs.exists = (p, cb) => queueMicrotask(() => cb(fs.existsSync(p)));
fs.promises.constants = fs.constants;
fs.promises.open = async (p, flags, mode) => {
  const fd = fs.openSync(p, flags, mode);
  return {
    fd,
    async readFile(o) { return decodeResult(fdRead(fd), encodingOf(o)); },
    async writeFile(d, o) { fdWrite(fd, toBytes(d, encodingOf(o) || 'utf8')); },
    async write(d) { return { bytesWritten: fdWrite(fd, toBytes(d)) }; },
    async read(buffer, offset, length, position) { return { bytesRead: fs.readSync(fd, buffer, offset, length, position), buffer }; },
    async stat() { return fs.fstatSync(fd); },
    async close() { fs.closeSync(fd); },
  };
};

// ---------------------------------------------------------------- util, os, events, readline
const util = {
  inspect, format,
  formatWithOptions: (o, ...a) => format(...a),
  promisify(fn) { return (...args) => new Promise((res, rej) => fn(...args, (err, v) => err ? rej(err) : res(v))); },
  callbackify(fn) { return (...args) => { const cb = args.pop(); fn(...args).then(v => cb(null, v), e => cb(e)); }; },
  isDeepStrictEqual: (a, b) => inspect(a, { depth: null }) === inspect(b, { depth: null }),
  inherits(ctor, superCtor) { Object.setPrototypeOf(ctor.prototype, superCtor.prototype); Object.setPrototypeOf(ctor, superCtor); },
  deprecate: fn => fn,
  types: { isPromise: v => v instanceof Promise, isDate: v => v instanceof Date, isRegExp: v => v instanceof RegExp },
  TextEncoder, TextDecoder,
};
inspect.custom = kCustomInspect;

const nodeOs = {
  EOL: '\n', platform: () => 'linux', type: () => 'Linux', arch: () => 'wasm32', release: () => '6.1.0-sandbox',
  hostname: () => 'sandbox', homedir: () => process.env.HOME || '/home/user', tmpdir: () => '/tmp',
  cpus: () => [{ model: 'wasm32', speed: 0, times: {} }], totalmem: () => hostCall('memory').limit,
  freemem: () => hostCall('memory').limit - hostCall('memory').memory, uptime: () => process.uptime(),
  userInfo: () => ({ username: 'user', uid: 1000, gid: 1000, shell: '/bin/bash', homedir: '/home/user' }),
  endianness: () => 'LE', loadavg: () => [0, 0, 0], networkInterfaces: () => ({}),
};

class Interface extends Emitter {
  constructor(input, output) {
    super();
    this.input = input; this.output = output; this.closed = false; this._buf = ''; this._lines = [];
    this._onListen = ev => { if (ev === 'line') setTimeout(() => this._flow(), 0); };
  }
  _nextLine() {
    for (;;) {
      const i = this._buf.indexOf('\n');
      if (i >= 0) { const line = this._buf.slice(0, i).replace(/\r$/, ''); this._buf = this._buf.slice(i + 1); return line; }
      const c = this.input && this.input._chunk ? this.input._chunk() : null;
      if (c === null) { if (this._buf) { const l = this._buf; this._buf = ''; return l; } return null; }
      this._buf += typeof c === 'string' ? c : c.toString();
    }
  }
  _flow() {
    if (this.closed) return;
    const line = this._nextLine();
    if (line === null) return this.close();
    this.emit('line', line);
    setTimeout(() => this._flow(), 0);
  }
  question(q, opts, cb) {
    if (typeof opts === 'function') cb = opts;
    if (this.output) this.output.write(q);
    const line = this._nextLine();
    if (cb) queueMicrotask(() => cb(line ?? ''));
    else return Promise.resolve(line ?? '');
  }
  close() { if (!this.closed) { this.closed = true; this.emit('close'); } }
  setPrompt(p) { this._prompt = p; }
  prompt() { if (this.output && this._prompt) this.output.write(this._prompt); }
  write(s) { if (this.output) this.output.write(s); }
  async *[Symbol.asyncIterator]() { for (let l; (l = this._nextLine()) !== null;) yield l; this.close(); }
}
const readline = { createInterface(opts, output) { const o = opts && opts.input ? opts : { input: opts, output }; return new Interface(o.input, o.output); } };
const readlinePromises = { createInterface: readline.createInterface };
const events = Emitter;
events.EventEmitter = Emitter;
events.once = (em, ev) => new Promise(res => em.once(ev, (...a) => res(a)));

const assert = (ok, msg) => { if (!ok) throw Object.assign(new Error(msg || 'Assertion failed'), { name: 'AssertionError', code: 'ERR_ASSERTION' }); };
assert.ok = assert;
assert.equal = (a, b, m) => assert(a == b, m || `${inspect(a)} == ${inspect(b)}`);
assert.strictEqual = (a, b, m) => assert(Object.is(a, b), m || `Expected values to be strictly equal:\n\n${inspect(a)} !== ${inspect(b)}\n`);
assert.notStrictEqual = (a, b, m) => assert(!Object.is(a, b), m || `Expected "actual" to be strictly unequal to: ${inspect(b)}`);
assert.deepStrictEqual = assert.deepEqual = (a, b, m) => assert(util.isDeepStrictEqual(a, b), m || `Expected values to be deeply equal:\n${inspect(a)}\n!==\n${inspect(b)}`);
assert.throws = (fn, _e, m) => { try { fn(); } catch { return; } assert(false, m || 'Missing expected exception.'); };
assert.fail = m => assert(false, m || 'Failed');

// ---------------------------------------------------------------- structuredClone, crypto
function structuredClone(value) {
  const done = new Map();
  const fail = v => { throw Object.assign(new Error(`${inspect(v)} could not be cloned.`), { name: 'DataCloneError', code: 25 }); };
  function clone(v) {
    if (typeof v === 'function' || typeof v === 'symbol') fail(v);
    if (v === null || typeof v !== 'object') return v;
    if (done.has(v)) return done.get(v);
    let out;
    if (v instanceof Date) out = new Date(v.getTime());
    else if (v instanceof RegExp) out = new RegExp(v.source, v.flags);
    else if (v instanceof ArrayBuffer) out = v.slice(0);
    else if (ArrayBuffer.isView(v)) out = new v.constructor(clone(v.buffer), v.byteOffset, v instanceof DataView ? v.byteLength : v.length);
    else if (v instanceof Map) { out = new Map(); done.set(v, out); for (const [k, x] of v) out.set(clone(k), clone(x)); return out; }
    else if (v instanceof Set) { out = new Set(); done.set(v, out); for (const x of v) out.add(clone(x)); return out; }
    else if (v instanceof Error) { out = new (globalThis[v.name] || Error)(v.message); out.stack = v.stack; }
    else if (v instanceof Promise || v instanceof WeakMap || v instanceof WeakSet) fail(v);
    else {
      out = Array.isArray(v) ? new Array(v.length) : {};
      done.set(v, out);
      for (const k of Object.keys(v)) out[k] = clone(v[k]);
      return out;
    }
    done.set(v, out);
    return out;
  }
  return clone(value);
}

function randomBytes(n, cb) {
  const b = n > 0 ? hostCall('random', { size: n }, undefined, 'bytes') : new Buffer(0);
  if (cb) { queueMicrotask(() => cb(null, b)); return; }
  return b;
}
function randomUUID() {
  const b = randomBytes(16);
  b[6] = b[6] & 0x0f | 0x40;
  b[8] = b[8] & 0x3f | 0x80;
  const h = b.toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}
function getRandomValues(array) {
  if (!ArrayBuffer.isView(array) || array instanceof Float32Array || array instanceof Float64Array || array instanceof DataView)
    throw new TypeError('The data argument must be an integer-type TypedArray');
  if (array.byteLength > 65536) throw Object.assign(new Error(`The ArrayBufferView's byte length (${array.byteLength}) exceeds the number of bytes of entropy available via this API (65536)`), { name: 'QuotaExceededError' });
  new Uint8Array(array.buffer, array.byteOffset, array.byteLength).set(randomBytes(array.byteLength));
  return array;
}
class Hash {
  constructor(algorithm, key) { this.algorithm = String(algorithm).toLowerCase(); this.key = key; this.parts = []; }
  update(data, enc) { this.parts.push(toBytes(data, enc)); return this; }
  digest(enc) {
    const total = Buffer.concat(this.parts.map(p => Buffer.from(p)));
    const d = hostCall('hash', { algorithm: this.algorithm, key: this.key === undefined ? null : Buffer.from(toBytes(this.key)).toString('base64') }, total, 'bytes');
    return enc ? d.toString(enc) : d;
  }
  copy() { const h = new Hash(this.algorithm, this.key); h.parts = [...this.parts]; return h; }
}
const nodeCrypto = {
  randomBytes, randomUUID, getRandomValues,
  randomInt(min, max, cb) {
    if (max === undefined || typeof max === 'function') { cb = max; max = min; min = 0; }
    const range = max - min;
    if (!(range > 0)) throw new RangeError(`The value of "max" is out of range. It must be greater than the value of "min" (${min}). Received ${max}`);
    const r = min + Number(randomBytes(6).reduce((acc, b) => acc * 256n + BigInt(b), 0n) % BigInt(range));
    if (cb) { queueMicrotask(() => cb(null, r)); return; }
    return r;
  },
  createHash: algorithm => new Hash(algorithm),
  createHmac: (algorithm, key) => new Hash(algorithm, key ?? ''),
  getHashes: () => ['md5', 'sha1', 'sha224', 'sha256', 'sha384', 'sha512'],
  webcrypto: { getRandomValues, randomUUID },
};
const crypto = { getRandomValues, randomUUID };

const zlib = {};
for (const [name, format] of [['gzip', 'gzip'], ['gunzip', 'gunzip'], ['deflate', 'deflate'], ['inflate', 'inflate'],
  ['deflateRaw', 'deflateRaw'], ['inflateRaw', 'inflateRaw'], ['unzip', 'unzip']]) {
  const sync = (data, opts = {}) => hostCall('zlib', { format, level: opts.level ?? -1 }, toBytes(data), 'bytes');
  zlib[name + 'Sync'] = sync;
  zlib[name] = (data, opts, cb) => {
    if (typeof opts === 'function') { cb = opts; opts = {}; }
    let result, error = null;
    try { result = sync(data, opts); } catch (e) { error = e; }
    queueMicrotask(() => cb(error, result));
  };
}

// ---------------------------------------------------------------- URL (a practical WHATWG subset)
const SPECIAL_PORTS = { 'http:': '80', 'https:': '443', 'ws:': '80', 'wss:': '443', 'ftp:': '21', 'file:': '' };
const formEncode = s => encodeURIComponent(s).replace(/%20/g, '+').replace(/[!'()~]/g, c => '%' + c.charCodeAt(0).toString(16).toUpperCase());
const formDecode = s => { try { return decodeURIComponent(s.replace(/\+/g, ' ')); } catch { return s; } };
const encodePart = (s, keep) => s.replace(/[^A-Za-z0-9\-._~!$&'()*+,;=:@%/?]/g, c => keep.includes(c) ? c : encodeURIComponent(c));

class URLSearchParams {
  constructor(init = '') {
    this._list = [];
    this._url = null;
    if (typeof init === 'string') this._parse(init);
    else if (init instanceof URLSearchParams) this._list = init._list.map(p => [...p]);
    else if (init && typeof init[Symbol.iterator] === 'function') for (const [k, v] of init) this._list.push([String(k), String(v)]);
    else if (init && typeof init === 'object') for (const k of Object.keys(init)) this._list.push([k, String(init[k])]);
  }
  _parse(text) {
    this._list = [];
    for (const part of text.replace(/^\?/, '').split('&')) {
      if (!part) continue;
      const i = part.indexOf('=');
      this._list.push(i < 0 ? [formDecode(part), ''] : [formDecode(part.slice(0, i)), formDecode(part.slice(i + 1))]);
    }
  }
  _changed() { if (this._url) { const q = this.toString(); this._url._query = q ? '?' + q : ''; } }
  get size() { return this._list.length; }
  append(k, v) { this._list.push([String(k), String(v)]); this._changed(); }
  delete(k, v) { this._list = this._list.filter(([a, b]) => a !== String(k) || (v !== undefined && b !== String(v))); this._changed(); }
  get(k) { const e = this._list.find(([a]) => a === String(k)); return e ? e[1] : null; }
  getAll(k) { return this._list.filter(([a]) => a === String(k)).map(([, b]) => b); }
  has(k, v) { return this._list.some(([a, b]) => a === String(k) && (v === undefined || b === String(v))); }
  set(k, v) {
    k = String(k);
    const i = this._list.findIndex(([a]) => a === k);
    if (i < 0) this._list.push([k, String(v)]);
    else { this._list[i][1] = String(v); this._list = this._list.filter(([a], j) => a !== k || j === i); }
    this._changed();
  }
  sort() { this._list.sort((x, y) => (x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : 0)); this._changed(); }
  forEach(fn, self) { for (const [k, v] of this._list) fn.call(self, v, k, this); }
  keys() { return this._list.map(([k]) => k)[Symbol.iterator](); }
  values() { return this._list.map(([, v]) => v)[Symbol.iterator](); }
  entries() { return this._list.map(p => [...p])[Symbol.iterator](); }
  [Symbol.iterator]() { return this.entries(); }
  toString() { return this._list.map(([k, v]) => formEncode(k) + '=' + formEncode(v)).join('&'); }
  [kCustomInspect]() { return `URLSearchParams { ${this._list.map(([k, v]) => `${quote(k)} => ${quote(v)}`).join(', ')}${this._list.length ? ' ' : ''}}`; }
}

function removeDots(path) {
  const out = [];
  const parts = path.split('/');
  for (let i = 0; i < parts.length; i++) {
    const p = parts[i];
    if (p === '..' || p.toLowerCase() === '%2e%2e') { if (out.length > 1) out.pop(); if (i === parts.length - 1) out.push(''); }
    else if (p === '.' || p.toLowerCase() === '%2e') { if (i === parts.length - 1) out.push(''); }
    else out.push(p);
  }
  return out.join('/');
}

class URL {
  constructor(input, base) {
    input = String(input).trim();
    const m = /^([A-Za-z][A-Za-z0-9+.-]*):(.*)$/s.exec(input);
    if (m) this._init(m[1].toLowerCase() + ':', m[2]);
    else {
      if (base === undefined) throw Object.assign(new TypeError(`Invalid URL`), { code: 'ERR_INVALID_URL', input });
      const b = base instanceof URL ? base : new URL(base);
      this._resolve(input, b);
    }
  }
  _init(protocol, rest) {
    this._protocol = protocol;
    this._username = this._password = this._hostname = this._port = '';
    const special = protocol in SPECIAL_PORTS;
    rest = rest.replace(/\\/g, special ? '/' : '\\');
    let hash = '', query = '';
    const h = rest.indexOf('#');
    if (h >= 0) { hash = rest.slice(h); rest = rest.slice(0, h); }
    const q = rest.indexOf('?');
    if (q >= 0) { query = rest.slice(q); rest = rest.slice(0, q); }
    this._hasAuthority = rest.startsWith('//') || (special && protocol !== 'file:');
    if (this._hasAuthority) {
      // special schemes ignore any number of slashes before the host; file: and others take two
      rest = special && protocol !== 'file:' ? rest.replace(/^\/*/, '') : rest.replace(/^\/\//, '');
      const slash = rest.indexOf('/');
      const authority = slash < 0 ? rest : rest.slice(0, slash);
      rest = slash < 0 ? '' : rest.slice(slash);
      const at = authority.lastIndexOf('@');
      let hostport = authority;
      if (at >= 0) {
        const cred = authority.slice(0, at);
        hostport = authority.slice(at + 1);
        const c = cred.indexOf(':');
        this._username = encodePart(c < 0 ? cred : cred.slice(0, c), '');
        this._password = c < 0 ? '' : encodePart(cred.slice(c + 1), '');
      }
      const pm = /^(\[[^\]]*\]|[^:]*)(?::(\d*))?$/.exec(hostport);
      if (!pm) throw Object.assign(new TypeError('Invalid URL'), { code: 'ERR_INVALID_URL' });
      this._hostname = special ? pm[1].toLowerCase() : pm[1];
      if (special && protocol !== 'file:' && !this._hostname) throw Object.assign(new TypeError('Invalid URL'), { code: 'ERR_INVALID_URL' });
      const port = pm[2] ? String(Number(pm[2])) : '';
      this._port = port === SPECIAL_PORTS[protocol] ? '' : port;
      this._path = special ? removeDots(rest || '/') : rest;
    } else this._path = rest;
    this._path = encodePart(this._path, '');
    this._query = query ? '?' + encodePart(query.slice(1), '') : '';
    this._hash = hash ? '#' + encodePart(hash.slice(1), '') : '';
  }
  _resolve(input, b) {
    Object.assign(this, { _protocol: b._protocol, _username: b._username, _password: b._password, _hostname: b._hostname, _port: b._port, _hasAuthority: b._hasAuthority });
    if (input.startsWith('//')) return this._init(b._protocol, input);
    let rest = input, hash = '', query = null;
    const h = rest.indexOf('#');
    if (h >= 0) { hash = rest.slice(h); rest = rest.slice(0, h); }
    const q = rest.indexOf('?');
    if (q >= 0) { query = rest.slice(q); rest = rest.slice(0, q); }
    if (!rest) this._path = b._path;
    else if (rest.startsWith('/')) this._path = removeDots(rest);
    else this._path = removeDots(b._path.slice(0, b._path.lastIndexOf('/') + 1) + rest);
    this._path = encodePart(this._path, '');
    this._query = query !== null ? (query.length > 1 ? '?' + encodePart(query.slice(1), '') : '') : rest ? '' : b._query;
    this._hash = hash.length > 1 ? '#' + encodePart(hash.slice(1), '') : '';
  }
  get protocol() { return this._protocol; }
  set protocol(v) { this._protocol = String(v).replace(/:?$/, ':').toLowerCase(); }
  get username() { return this._username; }
  set username(v) { this._username = encodePart(String(v), ''); }
  get password() { return this._password; }
  set password(v) { this._password = encodePart(String(v), ''); }
  get hostname() { return this._hostname; }
  set hostname(v) { this._hostname = String(v).toLowerCase(); }
  get port() { return this._port; }
  set port(v) { v = String(v); this._port = v === SPECIAL_PORTS[this._protocol] ? '' : v.replace(/\D.*$/, ''); }
  get host() { return this._hostname + (this._port ? ':' + this._port : ''); }
  set host(v) { const [h, p = ''] = String(v).split(':'); this.hostname = h; this.port = p; }
  get origin() { return this._protocol in SPECIAL_PORTS && this._protocol !== 'file:' ? `${this._protocol}//${this.host}` : 'null'; }
  get pathname() { return this._path; }
  set pathname(v) { v = String(v); this._path = encodePart(this._hasAuthority && !v.startsWith('/') ? '/' + v : v, ''); }
  get search() { return this._query.length > 1 ? this._query : ''; }
  set search(v) { v = String(v).replace(/^\?/, ''); this._query = v ? '?' + encodePart(v, '') : ''; if (this._params) this._params._parse(this._query); }
  get searchParams() {
    if (!this._params) { this._params = new URLSearchParams(this._query); this._params._url = this; }
    return this._params;
  }
  get hash() { return this._hash.length > 1 ? this._hash : ''; }
  set hash(v) { v = String(v).replace(/^#/, ''); this._hash = v ? '#' + encodePart(v, '') : ''; }
  get href() {
    const cred = this._username || this._password ? `${this._username}${this._password ? ':' + this._password : ''}@` : '';
    const authority = this._hasAuthority ? `//${cred}${this.host}` : '';
    return `${this._protocol}${authority}${this._path}${this._query}${this._hash}`;
  }
  set href(v) { const u = new URL(v); Object.assign(this, u); this._params = undefined; }
  toString() { return this.href; }
  toJSON() { return this.href; }
  static canParse(input, base) { try { new URL(input, base); return true; } catch { return false; } }
  [kCustomInspect]() {
    const fields = ['href', 'origin', 'protocol', 'username', 'password', 'host', 'hostname', 'port', 'pathname', 'search', 'searchParams', 'hash'];
    return `URL {\n${fields.map(f => `  ${f}: ${f === 'searchParams' ? this.searchParams[kCustomInspect]() : quote(this[f])}`).join(',\n')}\n}`;
  }
}
const nodeUrl = {
  URL, URLSearchParams,
  fileURLToPath(u) { const url = u instanceof URL ? u : new URL(u); if (url.protocol !== 'file:') throw Object.assign(new TypeError('The URL must be of scheme file'), { code: 'ERR_INVALID_URL_SCHEME' }); return decodeURIComponent(url.pathname); },
  pathToFileURL(p) { return new URL('file://' + encodePart(path.resolve(p), '')); },
};

// ---------------------------------------------------------------- modules
const builtins = {
  fs, path, process, util, os: nodeOs, events, readline, 'readline/promises': readlinePromises, assert,
  crypto: nodeCrypto, zlib, url: nodeUrl, querystring: { parse: q => Object.fromEntries(new URLSearchParams(q)), stringify: o => new URLSearchParams(o).toString() }, buffer: { Buffer }, 'fs/promises': fs.promises, 'path/posix': path, timers: { setTimeout, setInterval, clearTimeout: clearTimer, clearInterval: clearTimer, setImmediate: fn => setTimeout(fn, 0) },
  'timers/promises': { setTimeout: (ms, v) => new Promise(res => setTimeout(() => res(v), ms)) },
  child_process: new Proxy({}, { get() { throw makeError({ name: 'Error', code: 'ENOSYS', message: 'child_process is not available in the sandbox' }); } }),
};
function builtin(name) {
  const n = name.startsWith('node:') ? name.slice(5) : name;
  return Object.prototype.hasOwnProperty.call(builtins, n) ? builtins[n] : undefined;
}

const moduleCache = Object.create(null);  // filename -> module, like require.cache
function resolveFile(request, fromDir) {
  // a missing file is not a hit; a stack overflow or an interrupt is not a miss
  const notFound = e => { if (e instanceof RangeError || e instanceof InternalError) throw e; };
  const tryFile = p => { try { const s = hostCall('stat', { path: p, follow: true }); return (s.mode & 0o170000) === 0o100000; } catch (e) { notFound(e); return false; } };
  const tryDir = p => {
    try {
      const pkg = JSON.parse(hostCall('readFile', { path: p + '/package.json' }, undefined, 'text'));
      if (pkg.main) { const m = tryAll(path.resolve(p, pkg.main)); if (m) return m; }
    } catch (e) { notFound(e); }
    return ['/index.js', '/index.cjs', '/index.json'].map(s => p + s).find(tryFile);
  };
  const tryAll = p => [p, p + '.js', p + '.cjs', p + '.json'].find(tryFile) || tryDir(p);
  if (request.startsWith('./') || request.startsWith('../') || request.startsWith('/') || request === '.' || request === '..')
    return tryAll(path.resolve(fromDir, request));
  for (let d = fromDir; ; d = path.dirname(d)) {
    const hit = tryAll(path.join(d, 'node_modules', request));
    if (hit) return hit;
    if (d === '/') return undefined;
  }
}
function makeRequire(fromDir) {
  function require(request) {
    if (typeof request !== 'string') throw new TypeError('The "id" argument must be of type string');
    const b = builtin(request);
    if (b !== undefined) return b;
    if (request.startsWith('node:')) throw Object.assign(new Error(`No such built-in module: ${request}`), { code: 'ERR_UNKNOWN_BUILTIN_MODULE' });
    const file = resolveFile(request, fromDir);
    if (!file) throw Object.assign(new Error(`Cannot find module '${request}'`), { code: 'MODULE_NOT_FOUND' });
    if (file in moduleCache) return moduleCache[file].exports;
    const module = { id: file, filename: file, loaded: false, exports: {}, children: [], paths: [] };
    moduleCache[file] = module;
    try {
      if (file.endsWith('.json')) module.exports = JSON.parse(hostCall('readFile', { path: file }, undefined, 'text'));
      else {
        hostCall('compileCommonJS', { path: file });
        const fn = hostState.cjsResult;
        hostState.cjsResult = undefined;
        fn.call(module.exports, module.exports, makeRequire(path.dirname(file)), module, file, path.dirname(file));
      }
    } catch (e) {
      delete moduleCache[file];
      throw e;
    }
    module.loaded = true;
    return module.exports;
  }
  require.resolve = request => builtin(request) !== undefined ? request : resolveFile(request, fromDir) || (() => { throw Object.assign(new Error(`Cannot find module '${request}'`), { code: 'MODULE_NOT_FOUND' }); })();
  require.cache = moduleCache;
  return require;
}

// ---------------------------------------------------------------- globals and host hooks
Object.assign(globalThis, {
  console, display, process, Buffer, require: makeRequire('/'), fs, path,
  setTimeout, setInterval, clearTimeout: clearTimer, clearInterval: clearTimer,
  setImmediate: (fn, ...a) => setTimeout(fn, 0, ...a), clearImmediate: clearTimer,
  global: globalThis, TextEncoder, TextDecoder, structuredClone, crypto, URL, URLSearchParams,
});
// the prelude's own accessors that completion may read (they run no user code)
const safeGetters = new WeakSet();
// cwd-relative for cells; assigning one (`const require = ...`) replaces it with a plain value
function cwdGlobal(name, get) {
  safeGetters.add(get);
  Object.defineProperty(globalThis, name, {
    get, configurable: true,
    set(v) { Object.defineProperty(globalThis, name, { value: v, writable: true, configurable: true }); },
  });
}
cwdGlobal('require', () => makeRequire(hostState.cwd));
cwdGlobal('__filename', () => hostState.cwd + '/[cell]');
cwdGlobal('__dirname', () => hostState.cwd);
JSON.stringify = { stringify(value, replacer, space) {
  return boundedStringify(value, replacer, space);
} }.stringify;
Object.defineProperty(globalThis, 'std', { value: std, writable: true, configurable: true });
Object.defineProperty(globalThis, 'os', { value: os, writable: true, configurable: true });

// V8's side-effect-free ToString, as node quotes a non-error rejection reason
function reasonText(v) {
  if (typeof v === 'symbol') return v.toString();
  if (typeof v === 'function') return Function.prototype.toString.call(v);
  if (v === null || typeof v !== 'object') return String(v);
  try {
    const ctor = v.toString === Object.prototype.toString && v.constructor;
    if (typeof ctor === 'function' && ctor.name) return `#<${ctor.name}>`;
  } catch {}
  return Object.prototype.toString.call(v);
}

// A cell's top-level `const` runs as a `var` (so the cell can be re-run). Before the cell,
// `begin` turns each such name into an accessor that takes the initialiser's assignment and
// rejects any later one, as node does; a cell declaring the name again starts it afresh, and
// one declaring it with let/var/class/import makes it a plain variable again.
const constSetters = new WeakSet();
function declareCell(consts, declared) {
  for (const name of declared) {
    const d = Object.getOwnPropertyDescriptor(globalThis, name);
    if (d && constSetters.has(d.set)) Object.defineProperty(globalThis, name, { value: d.get(), writable: true, enumerable: true, configurable: true });
  }
  for (const name of consts) {
    const d = Object.getOwnPropertyDescriptor(globalThis, name);
    if (d && !d.configurable) continue;  // an earlier `var` or function: cannot become constant
    let value = !d ? undefined : constSetters.has(d.set) ? d.get() : d.get ? undefined : d.value;
    let initialised = false;
    const set = v => {
      if (initialised) {
        const e = new TypeError('Assignment to constant variable.');
        Error.captureStackTrace(e, set);  // the stack starts at the assignment, as in node
        throw e;
      }
      initialised = true;
      value = v;
    };
    constSetters.add(set);
    Object.defineProperty(globalThis, name, { get: () => value, set, enumerable: true, configurable: true });
  }
}

// Completion and inspection (Tab and Shift-Tab in a %%js cell). The host resolves a member
// chain one object at a time and checks with JS_IsProxy before it hands an object here, so
// these run no user code: no getter is called (but the prelude's own const and cwd accessors,
// which only return a value), no Proxy trap, and no method a cell could have replaced (every
// builtin used is captured here, called through the captured Reflect.apply; no iterator, no
// regular expression, no spread). Values met on the way (a property's value) are only looked
// at with typeof and Array.isArray, which no Proxy can intercept.
const introspection = (() => {
  const { apply } = Reflect;
  const global = globalThis;  // a cell may make `globalThis` itself a getter
  const { getOwnPropertyDescriptor, getOwnPropertyNames, getPrototypeOf, hasOwn, freeze, create } = Object;
  const isArray = Array.isArray, isView = ArrayBuffer.isView;
  const startsWith = String.prototype.startsWith, strSlice = String.prototype.slice;
  const strIndexOf = String.prototype.indexOf;
  const fnToString = Function.prototype.toString, symToString = Symbol.prototype.toString;
  const weakHas = WeakSet.prototype.has;
  const getterOf = (proto, name) => getOwnPropertyDescriptor(proto, name).get;
  const mapSize = getterOf(Map.prototype, 'size'), setSize = getterOf(Set.prototype, 'size');
  const regexpSource = getterOf(RegExp.prototype, 'source');
  const FLAG_GETTERS = [];  // letter, getter of the flag (each reads the regexp's own slot)
  for (const [letter, name] of [['d', 'hasIndices'], ['g', 'global'], ['i', 'ignoreCase'], ['m', 'multiline'],
    ['s', 'dotAll'], ['u', 'unicode'], ['v', 'unicodeSets'], ['y', 'sticky']]) {
    const d = getOwnPropertyDescriptor(RegExp.prototype, name);
    if (d && d.get) FLAG_GETTERS.push(letter, d.get);
  }
  const dateIso = Date.prototype.toISOString, dateTime = Date.prototype.getTime;
  const typedLength = getterOf(getPrototypeOf(Uint8Array.prototype), 'length');
  const charCodeAt = String.prototype.charCodeAt;
  const MANY_INDICES = 1000;
  const indexCount = v => { try { return apply(typedLength, v, []); } catch { return 0; } };  // 0: a DataView
  const NOT_OWN = freeze(create(null)), ACCESSOR = freeze(create(null));
  const PREVIEW_ITEMS = 10, PREVIEW_TEXT = 1000, STRING_PREVIEW = 200, ITEM_TEXT = 60, SOURCE_LINE = 200;
  const isObject = v => v !== null && (typeof v === 'object' || typeof v === 'function');
  const ownDescriptor = (v, k) => { try { return getOwnPropertyDescriptor(v, k); } catch { return undefined; } };
  const safeGetter = d => (d.set !== undefined && apply(weakHas, constSetters, [d.set]))
    || (d.get !== undefined && apply(weakHas, safeGetters, [d.get]));
  const cut = (s, n) => s.length > n ? apply(strSlice, s, [0, n]) + '…' : s;
  const firstLine = s => { const i = apply(strIndexOf, s, ['\n']); return cut(i < 0 ? s : apply(strSlice, s, [0, i]), SOURCE_LINE); };

  // the value of own property `name` of `v`; NOT_OWN (look at the prototype) or ACCESSOR
  function own(v, name) {
    if (!isObject(v)) return typeof v === 'string' && name === 'length' ? v.length : NOT_OWN;
    const d = ownDescriptor(v, name);
    if (d === undefined) return NOT_OWN;
    if (hasOwn(d, 'value')) return d.value;
    if (safeGetter(d)) { try { return apply(d.get, v, []); } catch { return ACCESSOR; } }
    return ACCESSOR;
  }
  function proto(v) {
    if (v === null || v === undefined) return null;
    try { return getPrototypeOf(v); } catch { return null; }
  }
  // own names of `v` starting with `prefix` (at most `max`), each JSON-quoted after a kind
  // letter (f function, v other value, g accessor), joined with commas
  function names(v, prefix, max) {
    let out = '', n = 0;
    const add = (k, kind) => { out += (n++ ? ',' : '') + jsonStringify(kind + k); };
    if (typeof v === 'string') { if (apply(startsWith, 'length', [prefix])) add('length', 'v'); return out; }
    if (!isObject(v)) return out;
    let keys;
    // not the names of a long array's indices (a typed array has only those)
    if (isArray(v) && v.length > MANY_INDICES) keys = ['length'];
    else if (isView(v) && !(indexCount(v) <= MANY_INDICES)) keys = [];
    else { try { keys = getOwnPropertyNames(v); } catch { return out; } }
    for (let i = 0; i < keys.length && n < max; i++) {
      const k = keys[i];
      if (!apply(startsWith, k, [prefix]) || (v === global && k === '__sandbox')) continue;
      const c = apply(charCodeAt, k, [0]);
      if (c >= 48 && c <= 57) continue;  // an index: not a name to complete after a dot
      const d = ownDescriptor(v, k);
      if (d === undefined) continue;
      add(k, hasOwn(d, 'value') ? (typeof d.value === 'function' ? 'f' : 'v') : 'g');
    }
    return out;
  }
  function item(v) {  // a value inside a preview: never looked into
    if (typeof v === 'string') return jsonStringify(cut(v, ITEM_TEXT));
    if (typeof v === 'function') return '[Function]';
    if (isObject(v)) { try { return isArray(v) ? '[Array]' : '[Object]'; } catch { return '[Object]'; } }
    return primitive(v);
  }
  function primitive(v) {
    if (typeof v === 'symbol') return apply(symToString, v, []);
    if (typeof v === 'bigint') return '' + v + 'n';
    if (typeof v === 'number' && v === 0 && 1 / v < 0) return '-0';
    return '' + v;
  }
  // the first entries of `v`: its indices below `count` (keys null), else the names in `keys`
  function entries(v, keys, count) {
    let out = '', shown = 0;
    const total = keys === null ? count : keys.length;
    for (let i = 0; i < total && shown < PREVIEW_ITEMS; i++) {
      const k = keys === null ? '' + i : keys[i], d = ownDescriptor(v, k);
      let text;
      if (d === undefined) text = '<empty>';
      else if (hasOwn(d, 'value')) text = item(d.value);
      else text = d.set !== undefined && d.get !== undefined ? '[Getter/Setter]' : d.get !== undefined ? '[Getter]' : '[Setter]';
      out += (shown++ ? ', ' : '') + (keys === null ? '' : cut(k, ITEM_TEXT) + ': ') + text;
    }
    return out + (total > PREVIEW_ITEMS ? ', …' : '');
  }
  function regexpText(v) {  // throws unless v is a RegExp
    let flags = '';
    for (let i = 0; i < FLAG_GETTERS.length; i += 2) if (apply(FLAG_GETTERS[i + 1], v, [])) flags += FLAG_GETTERS[i];
    return '/' + cut(apply(regexpSource, v, []), STRING_PREVIEW) + '/' + flags;
  }
  // what Shift-Tab shows of a value: its type and a short preview, or a function's
  // name(length args) and the first line of its source; `cls` is its constructor's name
  function describe(v, proxied, cls) {
    const t = typeof v;
    if (proxied) return (t === 'function' ? 'function' : 'object') + ' (a Proxy: not looked into)';
    if (t === 'function') {
      let src = '';
      try { src = apply(fnToString, v, []); } catch {}
      const nd = ownDescriptor(v, 'name'), ld = ownDescriptor(v, 'length');
      const name = nd && hasOwn(nd, 'value') && typeof nd.value === 'string' ? cut(nd.value, ITEM_TEXT) : '';
      const length = ld && hasOwn(ld, 'value') && typeof ld.value === 'number' ? ld.value : '?';
      const kind = apply(startsWith, src, ['class']) ? 'class' : 'function';
      return kind + ' ' + name + '(' + length + (length === 1 ? ' arg)' : ' args)') + (src ? '\n' + firstLine(src) : '');
    }
    if (t === 'string') return 'string ' + jsonStringify(cut(v, STRING_PREVIEW)) + (v.length > STRING_PREVIEW ? ' (length ' + v.length + ')' : '');
    if (!isObject(v)) return (v === null ? 'null' : t + ' ' + primitive(v));
    const name = typeof cls === 'string' && cls ? cut(cls, ITEM_TEXT) : '';
    let text;
    try { text = (name || 'Map') + '(' + apply(mapSize, v, []) + ')'; } catch {}
    if (text === undefined) try { text = (name || 'Set') + '(' + apply(setSize, v, []) + ')'; } catch {}
    if (text === undefined) try { text = (name || 'RegExp') + ' ' + regexpText(v); } catch {}
    if (text === undefined) try { apply(dateTime, v, []); try { text = (name || 'Date') + ' ' + apply(dateIso, v, []); } catch { text = (name || 'Date') + ' Invalid Date'; } } catch {}
    if (text === undefined && isArray(v)) text = (name || 'Array') + '(' + v.length + ') [' + entries(v, null, v.length) + ']';
    if (text === undefined && isView(v)) {
      try { text = (name || 'TypedArray') + '(' + apply(typedLength, v, []) + ')'; } catch { text = name || 'DataView'; }
    }
    if (text === undefined) {
      let keys = [];
      try { keys = getOwnPropertyNames(v); } catch {}
      text = (name || (proto(v) === null ? '[Object: null prototype]' : 'Object')) + ' {' + entries(v, keys, 0) + '}';
    }
    return cut('object ' + text, PREVIEW_TEXT);
  }
  // where a chain starts: the global object, or a stand-in for a literal (`"s".`, `[].`)
  function base(kind) {
    return kind === 'string' ? '' : kind === 'number' ? 0 : kind === 'bigint' ? 0n : kind === 'array' ? []
      : kind === 'regexp' ? /(?:)/ : global;
  }
  return { NOT_OWN, ACCESSOR, own, proto, names, describe, base };
})();

// Called by the host (never by user code).
const host = {
  builtin,
  builtinTable() {
    const table = {};
    for (const name of Object.keys(builtins)) {
      const b = builtins[name];
      table[name] = b && (typeof b === 'object' || typeof b === 'function') ? Object.keys(b).filter(k => identRe.test(k)) : [];
    }
    return jsonStringify(table);
  },
  begin() {
    const { cwd, env, argv, consts, declared } = hostCall('session');
    hostState.cwd = cwd;
    hostState.exiting = false;
    try { os.chdir(cwd); } catch {}
    processEnv = env;
    process.argv = argv;
    process.exitCode = undefined;
    process.stdin = new StdinStream();
    groupIndent = '';
    if (consts.length || declared.length) declareCell(consts, declared);
  },
  cancelTimers() { return cancelAllTimers(); },
  refTimers() { let n = 0; for (const t of liveTimers.values()) if (t.ref) n++; return n; },
  exitCode() { return process.exitCode ?? 0; },
  emitExit(code) { if (!hostState.exiting) { hostState.exiting = true; try { process.emit('exit', code); } catch {} } },
  result(v, raw) { return v === undefined ? '' : 'v' + (raw && typeof v === 'string' ? v : inspect(v)); },
  error(e) {
    if (e instanceof Error || (e && typeof e === 'object' && 'stack' in e && 'message' in e))
      return jsonStringify({ name: String(e.name || 'Error'), message: String(e.message ?? ''), stack: String(e.stack || ''), text: errorText(e) });
    return jsonStringify({ name: 'Uncaught', message: inspect(e), stack: '', text: 'Uncaught ' + inspect(e) });
  },
  // a rejection nobody handled by the end of a run: true when process listeners took it
  unhandledRejection(reason, promise) {
    if (!process.listenerCount('unhandledRejection')) return false;
    process.emit('unhandledRejection', reason, promise);
    return true;
  },
  // what the run ends with otherwise: node wraps a reason that is not error-like
  rejectionError(reason) {
    if (reason instanceof Error || (reason && typeof reason === 'object' && Object.hasOwn(reason, 'stack'))) return reason;
    const e = new Error('This error originated either by throwing inside of an async function without a catch block, ' +
      `or by rejecting a promise which was not handled with .catch(). The promise rejected with the reason "${reasonText(reason)}".`);
    Object.defineProperties(e, { name: { value: 'UnhandledPromiseRejection' }, stack: { value: '' } });
    e.code = 'ERR_UNHANDLED_REJECTION';
    return e;
  },
  cjsDefine(fn) { hostState.cjsResult = fn; },
  // completion and inspection: see `introspection`
  notOwn: introspection.NOT_OWN,
  accessor: introspection.ACCESSOR,
  compOwn: introspection.own,
  compProto: introspection.proto,
  compNames: introspection.names,
  compDescribe: introspection.describe,
  compBase: introspection.base,
  runMain(file) {
    const require = makeRequire(path.dirname(file));
    delete moduleCache[file];
    const main = require.main = { id: '.', filename: file };
    return require(file);
  },
};
Object.defineProperty(globalThis, '__sandbox', { value: Object.freeze(host), enumerable: false });
