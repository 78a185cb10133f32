/**
 * Files between the notebook's folder on the host and the sandbox, moved by the frontend with the
 * user's own rights (Jupyter's contents API), never by the kernel: the kernel has no host access.
 * - `readHostFile`: a file of Lab's file browser, as bytes (for "Copy into Sandbox" and drops);
 * - `saveToHost`: a sandbox file written into a host folder ("Save to Notebook Folder"), in the
 *   contents API's chunks as Lab's own uploads;
 * - `HostNames`: tells a kernel the names (only) in its notebook's folder, so that `cat` of a
 *   missing file that is there says how to bring it in (op `host_names`, docs/comm-protocol.md).
 */
import { PathExt } from '@jupyterlab/coreutils';
import { Contents } from '@jupyterlab/services';

import { fromBase64, toBase64, VfsConnection } from './vfs';

/** The most names sent (the kernel takes at most 1000). */
export const MAX_HOST_NAMES = 1000;
/** The contents API's chunk for large saves (as JupyterLab's uploads). */
const SAVE_CHUNK = 1024 * 1024;
/** A name the kernel accepts: no control characters, at most 255 bytes. */
const encoder = new TextEncoder();
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

export function isPlainName(name: string): boolean {
  return !!name && name !== '.' && name !== '..' && !name.includes('/') && !CONTROL.test(name) &&
    encoder.encode(name).length <= 255;
}

/** The host folder of a notebook or console (its session path's folder). */
export function hostFolderOf(sessionPath: string): string {
  return PathExt.dirname(sessionPath);
}

export class HostFileError extends Error {}

/** A host file's bytes, read through the contents API; folders are refused with a message. */
export async function readHostFile(contents: Contents.IManager, path: string): Promise<Uint8Array> {
  const model = await contents.get(path, { content: false });
  if (model.type === 'directory') {
    throw new HostFileError(`${model.name} is a folder: copy its files (select them all), or upload a tar of it`);
  }
  const full = await contents.get(path, { type: 'file', format: 'base64', content: true });
  const view = fromBase64(String(full.content ?? '').replace(/\s/g, ''));
  return new Uint8Array(view.buffer, view.byteOffset, view.byteLength);
}

/** Whether `path` exists on the host (through the contents API). */
export async function hostExists(contents: Contents.IManager, path: string): Promise<boolean> {
  try {
    await contents.get(path, { content: false });
    return true;
  } catch {
    return false;
  }
}

/** Write `data` to the host file `path` (chunked for large files, as Lab's uploads). */
export async function saveToHost(
  contents: Contents.IManager,
  path: string,
  data: Uint8Array,
  onProgress?: (done: number, total: number) => void
): Promise<void> {
  const name = PathExt.basename(path);
  if (data.byteLength <= SAVE_CHUNK) {
    await contents.save(path, { type: 'file', format: 'base64', name, content: toBase64(data.slice().buffer) });
    onProgress?.(data.byteLength, data.byteLength);
    return;
  }
  for (let at = 0, chunk = 1; at < data.byteLength; at += SAVE_CHUNK, chunk++) {
    const end = Math.min(at + SAVE_CHUNK, data.byteLength);
    await contents.save(path, {
      type: 'file',
      format: 'base64',
      name,
      chunk: end >= data.byteLength ? -1 : chunk,
      content: toBase64(data.slice(at, end).buffer)
    });
    onProgress?.(end, data.byteLength);
  }
}

/** Keeps one kernel told the names in its notebook's folder, while both last. */
export class HostNames {
  constructor(
    readonly contents: Contents.IManager,
    readonly connection: VfsConnection,
    private _folder: string,
    private readonly _onSent?: (count: number) => void
  ) {
    connection.opened.connect(this._schedule, this);
    contents.fileChanged.connect(this._onFileChanged, this);
    connection.kernel.disposed.connect(() => this.dispose());
    if (connection.isOpen) {
      this._schedule();
    }
  }

  /** The notebook moved (renamed into another folder). */
  set folder(folder: string) {
    if (folder !== this._folder) {
      this._folder = folder;
      this._schedule();
    }
  }

  dispose(): void {
    if (this._disposed) {
      return;
    }
    this._disposed = true;
    window.clearTimeout(this._timer);
    this.connection.opened.disconnect(this._schedule, this);
    this.contents.fileChanged.disconnect(this._onFileChanged, this);
  }

  private _onFileChanged(_: Contents.IManager, change: Contents.IChangedArgs): void {
    const touched = [change.oldValue?.path, change.newValue?.path].filter(Boolean) as string[];
    if (touched.some(p => PathExt.dirname(p) === this._folder)) {
      this._schedule();
    }
  }

  private _schedule(): void {
    if (this._disposed) {
      return;
    }
    window.clearTimeout(this._timer);
    this._timer = window.setTimeout(() => void this._send(), 300);
  }

  private async _send(): Promise<void> {
    if (this._disposed || this.connection.isDisposed) {
      return;
    }
    try {
      const listing = await this.contents.get(this._folder, { content: true });
      const names = ((listing.content as Contents.IModel[]) || [])
        .filter(item => item.type !== 'directory' && isPlainName(item.name))
        .map(item => item.name)
        .slice(0, MAX_HOST_NAMES);
      await this.connection.request('host_names', { names });
      this._onSent?.(names.length);
    } catch {
      // a kernel without the op (ENOSYS), or a folder the server cannot list: no hint, no harm
    }
  }

  private _disposed = false;
  private _timer = 0;
}
