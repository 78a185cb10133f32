/**
 * A client for the kernel's `sandbox.vfs` comm (protocol: docs/comm-protocol.md).
 *
 * Requests carry a string id; replies are matched to their promise by that id. Binary
 * payloads travel in the comm message's `buffers`, or as base64 in the JSON where binary
 * websocket frames may not survive (see `transportEncoding`). Every request has a time limit.
 */
import { Kernel, KernelMessage } from '@jupyterlab/services';
import { ISignal, Signal } from '@lumino/signaling';

export const TARGET_NAME = 'sandbox.vfs';
/** The protocol's per-message buffer limit (read length and write chunk). */
export const CHUNK_SIZE = 4 * 1024 * 1024;
/** Refuse to load bigger files into the text editor (they are still downloadable). */
export const MAX_EDIT_SIZE = 16 * 1024 * 1024;
/** How long a request may wait for its reply. */
export const REQUEST_TIMEOUT = 60000;
/** The field that carries payloads on a base64 comm (protocol version 2). */
const BASE64_FIELD = 'buffers_base64';

export type Encoding = 'binary' | 'base64';

/**
 * How payloads can travel to this kernel. Only the `v1.kernel.websocket.jupyter.org` websocket
 * protocol guarantees that binary frames arrive: with it the server decodes every frame itself.
 * jupyter_server's gateway relay forces the legacy protocol and passes binary frames on as text,
 * which loses them (and breaks the connection), so anything else gets base64. The selected
 * protocol is not public in @jupyterlab/services 7; when it cannot be read, base64 is the safe choice.
 */
export function transportEncoding(kernel: Kernel.IKernelConnection): Encoding {
  const selected = (kernel as any)._selectedProtocol;
  return selected === KernelMessage.supportedKernelWebSocketProtocols.v1KernelWebsocketJupyterOrg
    ? 'binary'
    : 'base64';
}

export function toBase64(data: ArrayBuffer): string {
  const bytes = new Uint8Array(data);
  const parts: string[] = [];
  for (let at = 0; at < bytes.length; at += 0x8000) {
    parts.push(String.fromCharCode(...bytes.subarray(at, at + 0x8000)));
  }
  return btoa(parts.join(''));
}

export function fromBase64(text: string): DataView {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) {
    bytes[i] = binary.charCodeAt(i);
  }
  return new DataView(bytes.buffer);
}

export interface IEntry {
  name: string;
  type: 'file' | 'dir' | 'symlink' | 'device';
  size: number;
  mode: number;
  mtime: number;
  target: string | null;
}

export interface IStat extends IEntry {
  path: string;
}

export interface IChange {
  path: string;
  kind: 'created' | 'modified' | 'deleted';
}

/** A cell ran `nano PATH` (or edit, vi, vim): open PATH and answer with `edited`. */
export interface IEditRequest {
  edit: string;
  path: string;
}

/** A notice of the kernel's own (workspace restored, mounts, files not kept, a failed save). */
export interface INotice {
  level: 'info' | 'warning';
  text: string;
}

/** The VFS quota as `usage` reports it; `hint` says how to raise it (a kernel that knows). */
export interface IUsage {
  bytes_used: number;
  bytes_max: number;
  inodes_used: number;
  inodes_max: number;
  hint?: string;
}

/** A failed request: `code` is the errno name the kernel sent (ENOENT, ENOSPC, ...). */
export class VfsError extends Error {
  constructor(
    readonly code: string,
    message: string
  ) {
    super(message);
  }
}

interface IReply {
  result: any;
  buffers: DataView[];
}

interface IPending {
  resolve: (reply: IReply) => void;
  reject: (error: Error) => void;
}

/** One comm to one kernel; reopened on demand after a kernel restart. */
export class VfsConnection {
  constructor(readonly kernel: Kernel.IKernelConnection) {
    kernel.statusChanged.connect(this._onStatus, this);
    kernel.disposed.connect(() => this.dispose());
  }

  /** Batched change events pushed by the kernel (after `watch`). */
  get changed(): ISignal<this, IChange[]> {
    return this._changed;
  }

  /** The kernel's notices: shown as notifications, so they are not saved in the notebook. */
  get notice(): ISignal<this, INotice> {
    return this._notice;
  }

  /** The kernel asks for an editor (a cell runs `nano FILE`); answer with `edited`. */
  get editRequested(): ISignal<this, IEditRequest> {
    return this._editRequested;
  }

  /** Tell the kernel how an edit goes: `opened`, then `closed`; or `failed` with why. */
  async edited(edit: string, state: 'opened' | 'closed' | 'failed', message = ''): Promise<void> {
    await this.request('edited', { edit, state, message });
  }

  /** Open the comm now (the kernel only asks comms that are open for editors). */
  async connect(): Promise<void> {
    await this._open();
  }

  /** Emitted whenever the comm (re)opens: a kernel start or restart. */
  get opened(): ISignal<this, void> {
    return this._opened;
  }

  /** Whether the comm is open now. */
  get isOpen(): boolean {
    return this._comm !== null && !this._comm.isDisposed;
  }

  /** The kernel's decision on the notebook's workspace, when it came after a running cell. */
  get workspaceDecided(): ISignal<this, any> {
    return this._workspaceDecided;
  }

  /** Emitted after a restart gave the kernel a fresh sandbox (all listings are stale). */
  get reset(): ISignal<this, void> {
    return this._reset;
  }

  get isDisposed(): boolean {
    return this._disposed;
  }

  /** How payloads travel on the open comm (decided when it opens). */
  get encoding(): Encoding {
    return this._encoding;
  }

  dispose(): void {
    if (this._disposed) {
      return;
    }
    this._disposed = true;
    this._drop(new VfsError('EIO', 'the kernel connection was closed'));
    this.kernel.statusChanged.disconnect(this._onStatus, this);
    Signal.clearData(this);
  }

  /** Send one request; resolves with the result, rejects with a VfsError (ETIMEDOUT after `timeout` ms). */
  async request(
    op: string,
    fields: Record<string, unknown> = {},
    buffers: ArrayBuffer[] = [],
    timeout = REQUEST_TIMEOUT
  ): Promise<IReply> {
    const comm = await this._open();
    const id = `${++this._counter}`;
    const data: Record<string, unknown> = { id, op, ...fields };
    if (this._encoding === 'base64' && buffers.length) {
      data[BASE64_FIELD] = buffers.map(toBase64);
      buffers = [];
    }
    return new Promise<IReply>((resolve, reject) => {
      const timer = window.setTimeout(() => {
        this._pending.delete(id);
        reject(
          new VfsError(
            'ETIMEDOUT',
            `the kernel did not answer '${op}' within ${timeout / 1000} s. If JupyterLab reaches ` +
              'the kernel through a gateway or proxy, it may be dropping the messages of the sandbox.vfs comm.'
          )
        );
      }, timeout);
      const settle = <T>(done: (value: T) => void) => (value: T) => {
        window.clearTimeout(timer);
        done(value);
      };
      this._pending.set(id, { resolve: settle(resolve), reject: settle(reject) });
      try {
        comm.send(data as any, undefined, buffers);
      } catch (error) {
        this._pending.delete(id);
        window.clearTimeout(timer);
        reject(new VfsError('EIO', `could not send the request: ${error}`));
      }
    });
  }

  async list(path: string): Promise<IEntry[]> {
    return (await this.request('list', { path })).result.entries;
  }

  async stat(path: string): Promise<IStat> {
    return (await this.request('stat', { path })).result;
  }

  async usage(): Promise<IUsage> {
    return (await this.request('usage')).result;
  }

  /** The whole file, read in protocol-sized chunks. */
  async readAll(
    path: string,
    onProgress?: (done: number, total: number) => void
  ): Promise<Uint8Array> {
    const parts: Uint8Array[] = [];
    let offset = 0;
    for (;;) {
      const reply = await this.request('read', { path, offset, length: CHUNK_SIZE });
      const view = reply.buffers[0];
      const chunk = view
        ? new Uint8Array(view.buffer, view.byteOffset, view.byteLength).slice()
        : new Uint8Array(0);
      parts.push(chunk);
      offset += chunk.byteLength;
      onProgress?.(offset, reply.result.size);
      if (reply.result.eof || chunk.byteLength === 0) {
        break;
      }
    }
    const out = new Uint8Array(offset);
    let at = 0;
    for (const part of parts) {
      out.set(part, at);
      at += part.byteLength;
    }
    return out;
  }

  /**
   * Replace `path` with `data`, in chunks of at most CHUNK_SIZE with explicit offsets. More than
   * one chunk goes to a hidden staged name beside `path` first and is renamed into place at the
   * end, so a transfer that fails half-way leaves nothing behind and an existing file as it was
   * (the kernel also deletes a staged file its comm abandons).
   */
  async writeAll(
    path: string,
    data: Blob | Uint8Array,
    onProgress?: (done: number, total: number) => void
  ): Promise<void> {
    const total = data instanceof Blob ? data.size : data.byteLength;
    const staged = total > CHUNK_SIZE;
    const target = staged ? stagedName(path) : path;
    let offset = 0;
    try {
      do {
        const end = Math.min(offset + CHUNK_SIZE, total);
        const chunk =
          data instanceof Blob
            ? await data.slice(offset, end).arrayBuffer()
            : data.slice(offset, end).buffer;
        const fields: Record<string, unknown> = { path: target, offset, truncate: offset === 0 };
        if (staged) {
          fields.staged = true;
        }
        await this.request('write', fields, [chunk]);
        offset = end;
        onProgress?.(offset, total);
      } while (offset < total);
      if (staged) {
        await this.request('rename', { path: target, to: path });
      }
    } catch (error) {
      if (staged && offset > 0) {
        await this.request('delete', { path: target }).catch(() => undefined);
      }
      throw error;
    }
  }

  private async _open(): Promise<Kernel.IComm> {
    if (this._disposed) {
      throw new VfsError('EIO', 'the kernel connection was closed');
    }
    if (!this._opening) {
      this._opening = this._connect();
      // a failed open is retried by the next request
      this._opening.catch(() => (this._opening = null));
    }
    return this._opening;
  }

  private _connect(): Promise<Kernel.IComm> {
    return new Promise<Kernel.IComm>((resolve, reject) => {
      let comm: Kernel.IComm;
      const encoding = transportEncoding(this.kernel);
      try {
        comm = this.kernel.createComm(TARGET_NAME);
      } catch (error) {
        reject(new VfsError('EIO', `cannot open the sandbox.vfs comm: ${error}`));
        return;
      }
      let opened = false;
      const timer = window.setTimeout(() => {
        if (!opened) {
          reject(new VfsError('ETIMEDOUT', 'the kernel did not answer the sandbox.vfs comm'));
          this._comm = null;
        }
      }, 30000);
      comm.onMsg = (msg: KernelMessage.ICommMsgMsg) => {
        const data = msg.content.data as any;
        if (data && data.event === 'open') {
          opened = true;
          window.clearTimeout(timer);
          // a version 1 kernel knows binary only (and says nothing about encodings)
          this._encoding = data.encoding === 'base64' ? 'base64' : 'binary';
          this._comm = comm;
          // watch on every (re)open so that change events flow for this comm
          this._watch(comm);
          resolve(comm);
          this._opened.emit();
        } else if (data && data.event === 'changed') {
          this._changed.emit(data.changes as IChange[]);
        } else if (data && data.event === 'notice' && typeof data.text === 'string') {
          this._notice.emit({ level: data.level === 'warning' ? 'warning' : 'info', text: data.text });
        } else if (data && data.event === 'workspace') {
          this._workspaceDecided.emit(data);
        } else if (data && data.event === 'edit' && typeof data.path === 'string') {
          this._editRequested.emit({ edit: String(data.edit), path: data.path });
        } else if (data && data.id !== undefined && data.id !== null) {
          const encoded = data[BASE64_FIELD];
          const buffers = Array.isArray(encoded) ? encoded.map(fromBase64) : msg.buffers || [];
          this._settle(data, buffers as DataView[]);
        }
      };
      comm.onClose = () => {
        window.clearTimeout(timer);
        if (this._comm === comm) {
          this._comm = null;
          this._opening = null;
        }
        if (!opened) {
          reject(new VfsError('EIO', 'the kernel closed the sandbox.vfs comm'));
        }
      };
      // this comm hosts editors for `nano FILE` (see docs/comm-protocol.md)
      // and shows the kernel's notices (as notifications: not saved in the notebook)
      comm.open({ encoding, editor: true, notices: true });
    });
  }

  private _watch(comm: Kernel.IComm): void {
    const id = `${++this._counter}`;
    this._pending.set(id, { resolve: () => undefined, reject: () => undefined });
    comm.send({ id, op: 'watch' });
  }

  private _settle(data: any, buffers: DataView[]): void {
    const id = String(data.id);
    const pending = this._pending.get(id);
    if (!pending) {
      return;
    }
    this._pending.delete(id);
    if (data.ok) {
      pending.resolve({ result: data.result, buffers });
    } else {
      const error = data.error || {};
      pending.reject(new VfsError(error.code || 'EIO', error.message || 'request failed'));
    }
  }

  private _drop(error: Error): void {
    const pending = [...this._pending.values()];
    this._pending.clear();
    pending.forEach(p => p.reject(error));
    if (this._comm && !this._comm.isDisposed) {
      try {
        this._comm.close();
      } catch {
        // the kernel may already be gone
      }
    }
    this._comm = null;
    this._opening = null;
  }

  private _onStatus(_: Kernel.IKernelConnection, status: Kernel.Status): void {
    if (status === 'restarting' || status === 'autorestarting' || status === 'dead') {
      // the sandbox (and its comm) is gone; the next request opens a new comm
      this._drop(new VfsError('EIO', 'the kernel restarted'));
      this._restarted = true;
    } else if (this._restarted && status === 'idle') {
      this._restarted = false;
      void this._open().catch(() => undefined); // the new sandbox's comm (editors, change events)
      this._reset.emit();
    }
  }

  private _encoding: Encoding = 'binary';
  private _comm: Kernel.IComm | null = null;
  private _opening: Promise<Kernel.IComm> | null = null;
  private _pending = new Map<string, IPending>();
  private _counter = 0;
  private _disposed = false;
  private _restarted = false;
  private _changed = new Signal<this, IChange[]>(this);
  private _reset = new Signal<this, void>(this);
  private _opened = new Signal<this, void>(this);
  private _workspaceDecided = new Signal<this, any>(this);
  private _editRequested = new Signal<this, IEditRequest>(this);
  private _notice = new Signal<this, INotice>(this);
}

/** A hidden name beside `path` for an upload under way (at most 255 bytes long). */
function stagedName(path: string): string {
  const random = Math.random().toString(36).slice(2, 10);
  let name = basename(path);
  while (new TextEncoder().encode(`.${name}.upload-${random}`).length > 255) {
    name = name.slice(0, -1);
  }
  return joinPath(dirname(path), `.${name}.upload-${random}`);
}

/** Join a directory and a name into an absolute VFS path. */
export function joinPath(dir: string, name: string): string {
  return dir === '/' ? `/${name}` : `${dir}/${name}`;
}

export function dirname(path: string): string {
  const at = path.lastIndexOf('/');
  return at <= 0 ? '/' : path.slice(0, at);
}

export function basename(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1) || '/';
}

export function formatSize(size: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB'];
  let value = size;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return unit === 0 ? `${size} B` : `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`;
}
