/**
 * The notebook's persistent workspace (a kernel installed with `--persist`): its id lives in the
 * notebook's metadata (`sandbox_kernel.workspace`), so the saved files follow the notebook when
 * it is renamed or moved, not its path. The id and the notebook's path go to the kernel over the
 * `sandbox.vfs` comm (op `workspace`, docs/comm-protocol.md) whenever the comm opens (a kernel
 * start or restart) and whenever the notebook is renamed; the kernel answers with the id the
 * notebook keeps (a new notebook gets its store's, a copy of an open notebook a new one), which
 * is written into the metadata when it differs.
 */
import { NotebookPanel } from '@jupyterlab/notebook';

import { VfsConnection } from './vfs';

/** The notebook metadata key of the sandbox kernel's own fields. */
export const METADATA_KEY = 'sandbox_kernel';
const ID = /^[A-Za-z0-9_-]{8,64}$/;

/** The workspace id in the notebook's metadata, or null. */
export function workspaceOf(panel: NotebookPanel): string | null {
  const value = panel.model?.getMetadata(METADATA_KEY) as any;
  const id = value && typeof value === 'object' ? value.workspace : undefined;
  return typeof id === 'string' && ID.test(id) ? id : null;
}

function setWorkspace(panel: NotebookPanel, id: string): void {
  const model = panel.model;
  if (!model) {
    return;
  }
  const value = model.getMetadata(METADATA_KEY) as any;
  const fields = value && typeof value === 'object' && !Array.isArray(value) ? value : {};
  model.setMetadata(METADATA_KEY, { ...fields, workspace: id });
}

/** Tells one sandbox kernel which notebook it runs, for as long as both last. */
export class NotebookWorkspace {
  constructor(
    readonly panel: NotebookPanel,
    readonly connection: VfsConnection
  ) {
    connection.opened.connect(this._send, this);
    connection.workspaceDecided.connect(this._onDecided, this);
    panel.context.pathChanged.connect(this._send, this);
    panel.disposed.connect(() => this.dispose());
    connection.kernel.disposed.connect(() => this.dispose());
    if (connection.isOpen) {
      void this._send();
    }
  }

  dispose(): void {
    if (this._disposed) {
      return;
    }
    this._disposed = true;
    this.connection.opened.disconnect(this._send, this);
    this.connection.workspaceDecided.disconnect(this._onDecided, this);
    this.panel.context.pathChanged.disconnect(this._send, this);
  }

  private async _send(): Promise<void> {
    if (this._disposed || this.connection.isDisposed) {
      return;
    }
    try {
      const reply = await this.connection.request('workspace', {
        workspace: workspaceOf(this.panel),
        path: this.panel.context.localPath
      });
      this._apply(reply.result);
    } catch {
      // a kernel without the op (ENOSYS) or gone: the notebook keeps what it has
    }
  }

  private _onDecided(_: VfsConnection, result: any): void {
    this._apply(result);
  }

  private _apply(result: any): void {
    if (this._disposed || !result || result.persist !== true || result.pending) {
      return;
    }
    const id = result.workspace;
    if (typeof id === 'string' && ID.test(id) && workspaceOf(this.panel) !== id) {
      setWorkspace(this.panel, id);
    }
  }

  private _disposed = false;
}
