/**
 * A text editor for one sandbox file in the main area: loads it over the comm, saves it back
 * (Ctrl/Cmd+S or the toolbar), and follows changes that cells make to it.
 */
import { MainAreaWidget, ToolbarButton } from '@jupyterlab/apputils';
import { CodeEditor, CodeEditorWrapper, IEditorServices } from '@jupyterlab/codeeditor';
import { refreshIcon, saveIcon, textEditorIcon } from '@jupyterlab/ui-components';
import { Widget } from '@lumino/widgets';

import { describe } from './panel';
import { basename, IChange, MAX_EDIT_SIZE, VfsConnection, VfsError } from './vfs';

export class SandboxFileEditor extends MainAreaWidget<CodeEditorWrapper> {
  constructor(
    readonly connection: VfsConnection,
    readonly path: string,
    text: string,
    label: string,
    services: IEditorServices
  ) {
    const model = new CodeEditor.Model({
      mimeType: services.mimeTypeService.getMimeTypeByFilePath(path)
    });
    model.sharedModel.setSource(text);
    const content = new CodeEditorWrapper({
      factory: services.factoryService.newDocumentEditor,
      model
    });
    super({ content });
    this._saved = text;
    this.addClass('jp-SandboxFileEditor');
    this.title.label = basename(path);
    this.title.caption = `${path} (sandbox of ${label})`;
    this.title.icon = textEditorIcon;
    this.title.closable = true;
    this.node.dataset.path = path;

    this.toolbar.addItem(
      'save',
      new ToolbarButton({ icon: saveIcon, tooltip: 'Save to the sandbox (Ctrl+S)', onClick: () => void this.save() })
    );
    this.toolbar.addItem(
      'reload',
      new ToolbarButton({ icon: refreshIcon, tooltip: 'Reload from the sandbox', onClick: () => void this.reload(true) })
    );
    this._state.node.className = 'jp-SandboxFileEditor-state';
    this.toolbar.addItem('state', this._state);

    model.sharedModel.changed.connect(this._updateDirty, this);
    connection.changed.connect(this._onChanged, this);
    connection.reset.connect(this._onReset, this);
  }

  get dirty(): boolean {
    return this.content.model.sharedModel.getSource() !== this._saved;
  }

  dispose(): void {
    if (!this.isDisposed) {
      this.connection.changed.disconnect(this._onChanged, this);
      this.connection.reset.disconnect(this._onReset, this);
    }
    super.dispose();
  }

  /** Resolves once no save is under way (a tab closed while saving still writes it all). */
  async settled(): Promise<void> {
    await this._saving;
  }

  save(): Promise<void> {
    this._saving = this._saving.then(() => this._save());
    return this._saving;
  }

  private async _save(): Promise<void> {
    const text = this.content.model.sharedModel.getSource();
    try {
      this._setState('saving…');
      await this.connection.writeAll(this.path, new TextEncoder().encode(text));
      this._saved = text;
      this._setState('saved');
    } catch (error) {
      this._setState(`not saved: ${describe(error)}`);
    }
    this._updateDirty();
  }

  /** Load the file again; unsaved edits are kept unless `force`. */
  async reload(force = false): Promise<void> {
    if (this.dirty && !force) {
      this._setState('changed in the sandbox; your edits are not saved (reload to discard them)');
      return;
    }
    try {
      const text = await loadText(this.connection, this.path);
      const changed = text !== this._saved;
      this._saved = text;
      if (this.content.model.sharedModel.getSource() !== text) {
        this.content.model.sharedModel.setSource(text);
      }
      if (changed || force) {
        this._setState('');  // "saved" stays until the file really changes
      }
    } catch (error) {
      this._setState(describe(error));
    }
    this._updateDirty();
  }

  protected onActivateRequest(): void {
    this.content.editor.focus();
  }

  private _onChanged(_: VfsConnection, changes: IChange[]): void {
    const change = changes.find(c => c.path === this.path);
    if (!change) {
      return;
    }
    if (change.kind === 'deleted') {
      this._setState('deleted in the sandbox (save to recreate it)');
    } else {
      // our own save comes back as a change too: look once it is done (then it is no news)
      void this._saving.then(() => this.reload());
    }
  }

  private _onReset(): void {
    this._setState('the kernel restarted: this file is no longer in its sandbox (save to recreate it)');
  }

  private _updateDirty(): void {
    this.title.className = this.dirty ? 'jp-mod-dirty' : '';
  }

  private _setState(text: string): void {
    this._state.node.textContent = text;
  }

  private _saved: string;
  private _saving: Promise<void> = Promise.resolve();
  private _state = new Widget();
}

/** The file as UTF-8 text; a VfsError (EISDIR, EFBIG, EILSEQ) when it cannot be edited. */
export async function loadText(connection: VfsConnection, path: string): Promise<string> {
  const info = await connection.stat(path);
  if (info.type === 'dir') {
    throw new VfsError('EISDIR', 'it is a folder');
  }
  if (info.size > MAX_EDIT_SIZE) {
    throw new VfsError('EFBIG', `too large to edit (${info.size} bytes); download it instead`);
  }
  const data = await connection.readAll(path);
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(data);
  } catch {
    throw new VfsError('EILSEQ', 'not UTF-8 text; download it instead');
  }
}
