/**
 * The "Sandbox files" side panel: a live tree of the sandbox VFS of the current notebook's
 * kernel, with upload by drag-and-drop and the file operations behind the context menu.
 */
import { Dialog, InputDialog, showDialog, showErrorMessage } from '@jupyterlab/apputils';
import {
  caretDownIcon,
  caretRightIcon,
  fileIcon,
  fileUploadIcon,
  folderIcon,
  homeIcon,
  LabIcon,
  linkIcon,
  newFolderIcon,
  refreshIcon,
  terminalIcon
} from '@jupyterlab/ui-components';
import { Drag } from '@lumino/dragdrop';
import { Message } from '@lumino/messaging';
import { Widget } from '@lumino/widgets';

import { TerminalShell, vmTerminalIcon } from './terminal';

import {
  basename,
  dirname,
  formatSize,
  IChange,
  IEntry,
  joinPath,
  VfsConnection,
  VfsError
} from './vfs';

export const HOME = '/workspace';
/** What JupyterLab's file browser drags: the dragged files' paths (a lumino drag). */
export const CONTENTS_MIME = 'application/x-jupyter-icontents';
/** Rows rendered per directory; the rest are summarised (the kernel lists them all). */
const MAX_ROWS_PER_DIR = 2000;

export interface IPanelOptions {
  /** Open a file in the editor (by the plugin, which owns the main area). */
  openFile: (connection: VfsConnection, path: string) => void;
  /** Open a Sandbox terminal (or VM terminal) on the connection's kernel. */
  openTerminal: (connection: VfsConnection, shell: TerminalShell) => void;
  /** Copy host files (paths of Jupyter's contents API, dragged from Lab's file browser) into `dir`. */
  copyHostFiles: (paths: string[], dir: string) => void;
}

export class SandboxFilesPanel extends Widget {
  constructor(private readonly _options: IPanelOptions) {
    super();
    this.addClass('jp-SandboxFiles');
    this.node.tabIndex = -1;

    const header = document.createElement('div');
    header.className = 'jp-SandboxFiles-header';
    header.textContent = 'Sandbox files';
    const toolbar = document.createElement('div');
    toolbar.className = 'jp-SandboxFiles-toolbar';
    toolbar.append(
      this._button(homeIcon, `Go to ${HOME}`, () => this.setRoot(HOME), 'home'),
      this._button(newFolderIcon, 'New folder', () => void this.newFolder(), 'new-folder'),
      this._button(fileUploadIcon, 'Upload files', () => this._fileInput.click(), 'upload'),
      this._button(refreshIcon, 'Refresh', () => void this.refresh(), 'refresh'),
      this._button(
        terminalIcon,
        'Open a terminal in the sandbox',
        () => this._connection && this._options.openTerminal(this._connection, 'sh'),
        'terminal'
      ),
      this._button(
        vmTerminalIcon,
        "Open a terminal in the notebook's VM (a login shell, like %%vm cells)",
        () => this._connection && this._options.openTerminal(this._connection, 'vm'),
        'vm-terminal'
      )
    );
    this._fileInput.type = 'file';
    this._fileInput.multiple = true;
    this._fileInput.className = 'jp-SandboxFiles-fileInput';
    this._fileInput.addEventListener('change', () => {
      const files = Array.from(this._fileInput.files || []);
      this._fileInput.value = '';
      void this.upload(files, this._targetDir());
    });
    toolbar.append(this._fileInput);

    this._crumbs.className = 'jp-SandboxFiles-crumbs';
    this._tree.className = 'jp-SandboxFiles-tree';
    this._tree.setAttribute('role', 'tree');
    this._tree.tabIndex = 0;
    this._message.className = 'jp-SandboxFiles-message';
    this._status.className = 'jp-SandboxFiles-status';
    this._status.hidden = true;
    this.node.append(header, toolbar, this._crumbs, this._message, this._tree, this._status);
    this._showMessage('Open a notebook that uses the Sandbox kernel to see its files.');
  }

  /** The host folder (contents API path) of the notebook or console followed: "Save to Notebook Folder". */
  hostFolder = '';

  get connection(): VfsConnection | null {
    return this._connection;
  }

  /** The notebook whose kernel the panel shows. */
  get label(): string {
    return this._label;
  }

  get root(): string {
    return this._root;
  }

  /** The path of the selected row, if any. */
  get selected(): string | null {
    return this._selected;
  }

  /** Type of a listed path (from the cached listings), or null when not listed. */
  entryOf(path: string): IEntry | null {
    const entries = this._listings.get(dirname(path));
    return entries?.find(e => e.name === basename(path)) ?? null;
  }

  /** Follow another kernel (null: the current notebook has no sandbox kernel). */
  setConnection(connection: VfsConnection | null, label: string, reason?: string): void {
    if (connection && connection === this._connection) {
      if (label !== this._label) {
        this._label = label;
        this._renderCrumbs();
      }
      return;
    }
    if (this._connection && this._connection !== connection) {
      this._connection.changed.disconnect(this._onChanged, this);
      this._connection.reset.disconnect(this._onReset, this);
    }
    this._connection = connection;
    this._label = label;
    this._listings.clear();
    this._expanded.clear();
    this._selected = null;
    if (!connection) {
      this._showMessage(
        reason || 'Open a notebook that uses the Sandbox kernel to see its files.'
      );
      return;
    }
    connection.changed.connect(this._onChanged, this);
    connection.reset.connect(this._onReset, this);
    this._root = this._roots.get(connection) ?? HOME;
    void this.refresh();
  }

  setRoot(path: string): void {
    if (!this._connection) {
      return;
    }
    this._root = path;
    this._roots.set(this._connection, path);
    this._selected = null;
    void this.refresh();
  }

  /** Re-list the root and every expanded directory. */
  async refresh(): Promise<void> {
    if (!this._connection) {
      return;
    }
    const dirs = [this._root, ...[...this._expanded].filter(d => this._isUnderRoot(d))];
    this._listings.clear();
    await this._load(dirs);
  }

  // ------------------------------------------------------------------ operations
  async newFolder(): Promise<void> {
    const connection = this._connection;
    if (!connection) {
      return;
    }
    const parent = this._targetDir();
    const answer = await InputDialog.getText({
      title: `New folder in ${parent}`,
      label: 'Folder name',
      placeholder: 'name',
      okLabel: 'Create'
    });
    const name = answer.value?.trim();
    if (!answer.button.accept || !name) {
      return;
    }
    if (name.includes('/')) {
      await showErrorMessage('New folder', `A folder name cannot contain "/": ${name}`);
      return;
    }
    const path = joinPath(parent, name);
    try {
      await connection.request('mkdir', { path });
      this._expanded.add(parent);
      this._selected = path;
      await this._load([parent]);
    } catch (error) {
      await this._error(`Cannot create ${path}`, error);
    }
  }

  async rename(path: string): Promise<void> {
    const connection = this._connection;
    if (!connection) {
      return;
    }
    const answer = await InputDialog.getText({
      title: `Rename ${path}`,
      label: 'New name (or an absolute path to move it)',
      text: basename(path),
      okLabel: 'Rename'
    });
    const value = answer.value?.trim();
    if (!answer.button.accept || !value || value === basename(path)) {
      return;
    }
    const to = value.startsWith('/') ? value : joinPath(dirname(path), value);
    try {
      const existing = await connection.stat(to).catch(() => null);
      if (existing) {
        const replace = await showDialog({
          title: 'Replace?',
          body: `${to} already exists. Replace it with ${path}?`,
          buttons: [Dialog.cancelButton(), Dialog.warnButton({ label: 'Replace' })]
        });
        if (!replace.button.accept) {
          return;
        }
      }
      await connection.request('rename', { path, to });
      this._selected = to;
      await this._load([dirname(path), dirname(to)]);
    } catch (error) {
      await this._error(`Cannot rename ${path}`, error);
    }
  }

  async delete(path: string): Promise<void> {
    const connection = this._connection;
    if (!connection) {
      return;
    }
    const entry = this.entryOf(path) ?? (await connection.stat(path).catch(() => null));
    const isDir = entry?.type === 'dir';
    const answer = await showDialog({
      title: isDir ? 'Delete folder' : 'Delete file',
      body: isDir
        ? `Delete the folder ${path} and everything in it?`
        : `Delete ${path}?`,
      buttons: [Dialog.cancelButton(), Dialog.warnButton({ label: 'Delete' })]
    });
    if (!answer.button.accept) {
      return;
    }
    try {
      await connection.request('delete', { path, recursive: isDir });
      if (this._selected === path) {
        this._selected = null;
      }
      await this._load([dirname(path)]);
    } catch (error) {
      await this._error(`Cannot delete ${path}`, error);
    }
  }

  async download(path: string): Promise<void> {
    const connection = this._connection;
    if (!connection) {
      return;
    }
    try {
      const data = await connection.readAll(path, (done, total) =>
        this._setStatus(`Downloading ${basename(path)}… ${percent(done, total)}`)
      );
      const url = URL.createObjectURL(new Blob([data], { type: 'application/octet-stream' }));
      const link = document.createElement('a');
      link.href = url;
      link.download = basename(path);
      document.body.append(link);
      link.click();
      link.remove();
      // revoke later: the browser reads the blob after the click returns
      window.setTimeout(() => URL.revokeObjectURL(url), 60000);
      this._setStatus('');
    } catch (error) {
      this._setStatus('');
      await this._error(`Cannot download ${path}`, error);
    }
  }

  /** Upload browser files into a VFS directory (asks before replacing existing files). */
  async upload(files: File[], dir: string): Promise<void> {
    const connection = this._connection;
    if (!connection || files.length === 0) {
      return;
    }
    for (const file of files) {
      const path = joinPath(dir, file.name);
      try {
        const existing = await connection.stat(path).catch(() => null);
        if (existing?.type === 'dir') {
          throw new VfsError('EISDIR', `${path} is a folder`);
        }
        // refused before any byte goes when it cannot fit: the quota, and how to raise it
        const usage = await connection.usage().catch(() => null);
        if (usage) {
          const free = Math.max(0, usage.bytes_max - usage.bytes_used) + (existing ? existing.size : 0);
          if (file.size > free) {
            throw new VfsError(
              'ENOSPC',
              `${file.name} is ${formatSize(file.size)}, but the sandbox has ${formatSize(free)} free ` +
                `(${usage.hint || `its files may take ${formatSize(usage.bytes_max)}, limit vfs_bytes: raise it with %limits vfs_bytes=... in a cell, or delete files`})`
            );
          }
        }
        if (existing) {
          const replace = await showDialog({
            title: 'Replace file?',
            body: `${path} already exists in the sandbox. Replace it?`,
            buttons: [Dialog.cancelButton({ label: 'Skip' }), Dialog.warnButton({ label: 'Replace' })]
          });
          if (!replace.button.accept) {
            continue;
          }
        }
        await connection.writeAll(path, file, (done, total) =>
          this._setStatus(`Uploading ${file.name}… ${percent(done, total)}`)
        );
      } catch (error) {
        this._setStatus('');
        await this._error(`Cannot upload ${file.name}`, error);
      }
    }
    this._setStatus('');
    this._expanded.add(dir);
    await this._load([dir]);
  }

  // ------------------------------------------------------------------ lifecycle
  protected onAfterAttach(msg: Message): void {
    super.onAfterAttach(msg);
    this._tree.addEventListener('click', this);
    this._tree.addEventListener('dblclick', this);
    this._tree.addEventListener('keydown', this);
    this._tree.addEventListener('contextmenu', this);
    this.node.addEventListener('dragenter', this);
    this.node.addEventListener('dragover', this);
    this.node.addEventListener('dragleave', this);
    this.node.addEventListener('drop', this);
    this.node.addEventListener('lm-dragenter', this);
    this.node.addEventListener('lm-dragover', this);
    this.node.addEventListener('lm-dragleave', this);
    this.node.addEventListener('lm-drop', this);
  }

  protected onBeforeDetach(msg: Message): void {
    this._tree.removeEventListener('click', this);
    this._tree.removeEventListener('dblclick', this);
    this._tree.removeEventListener('keydown', this);
    this._tree.removeEventListener('contextmenu', this);
    this.node.removeEventListener('dragenter', this);
    this.node.removeEventListener('dragover', this);
    this.node.removeEventListener('dragleave', this);
    this.node.removeEventListener('drop', this);
    this.node.removeEventListener('lm-dragenter', this);
    this.node.removeEventListener('lm-dragover', this);
    this.node.removeEventListener('lm-dragleave', this);
    this.node.removeEventListener('lm-drop', this);
    super.onBeforeDetach(msg);
  }

  protected onActivateRequest(msg: Message): void {
    this._tree.focus();
  }

  handleEvent(event: Event): void {
    switch (event.type) {
      case 'click':
        this._onClick(event as MouseEvent);
        break;
      case 'dblclick':
        this._onDoubleClick(event as MouseEvent);
        break;
      case 'keydown':
        this._onKeyDown(event as KeyboardEvent);
        break;
      case 'contextmenu':
        this._select(this._rowPath(event.target));
        break;
      case 'dragenter':
      case 'dragover':
        this._onDragOver(event as DragEvent);
        break;
      case 'dragleave':
        this._clearDropTarget();
        break;
      case 'drop':
        this._onDrop(event as DragEvent);
        break;
      case 'lm-dragenter':
      case 'lm-dragover':
        this._onHostDragOver(event as Drag.Event);
        break;
      case 'lm-dragleave':
        this._clearDropTarget();
        break;
      case 'lm-drop':
        this._onHostDrop(event as Drag.Event);
        break;
    }
  }

  // ------------------------------------------------------------------ events
  private _onClick(event: MouseEvent): void {
    const path = this._rowPath(event.target);
    if (!path) {
      return;
    }
    this._select(path);
    if (this.entryOf(path)?.type === 'dir') {
      void this._toggle(path);
    }
  }

  private _onDoubleClick(event: MouseEvent): void {
    const path = this._rowPath(event.target);
    if (path && this._connection && this.entryOf(path)?.type !== 'dir') {
      this._options.openFile(this._connection, path);
    }
  }

  private _onKeyDown(event: KeyboardEvent): void {
    const path = this._selected;
    const rows = Array.from(this._tree.querySelectorAll<HTMLElement>('.jp-SandboxFiles-item'));
    const index = rows.findIndex(r => r.dataset.path === path);
    const entry = path ? this.entryOf(path) : null;
    switch (event.key) {
      case 'ArrowDown':
      case 'ArrowUp': {
        const next = rows[Math.max(0, Math.min(rows.length - 1, index + (event.key === 'ArrowDown' ? 1 : -1)))];
        if (next) {
          this._select(next.dataset.path!);
          next.scrollIntoView({ block: 'nearest' });
        }
        break;
      }
      case 'ArrowRight':
        if (path && entry?.type === 'dir' && !this._expanded.has(path)) {
          void this._toggle(path);
        }
        break;
      case 'ArrowLeft':
        if (path && entry?.type === 'dir' && this._expanded.has(path)) {
          void this._toggle(path);
        } else if (path && dirname(path) !== dirname(this._root) && this._isUnderRoot(dirname(path))) {
          this._select(dirname(path));
        }
        break;
      case 'Enter':
        if (path && entry?.type === 'dir') {
          void this._toggle(path);
        } else if (path && this._connection) {
          this._options.openFile(this._connection, path);
        }
        break;
      case 'Delete':
        if (path) {
          void this.delete(path);
        }
        break;
      case 'F2':
        if (path) {
          void this.rename(path);
        }
        break;
      default:
        return;
    }
    event.preventDefault();
    event.stopPropagation();
  }

  private _onDragOver(event: DragEvent): void {
    if (!this._connection || !event.dataTransfer?.types.includes('Files')) {
      return;
    }
    event.preventDefault();
    event.stopPropagation();
    event.dataTransfer.dropEffect = 'copy';
    const dir = this._dropDir(event.target);
    this._clearDropTarget();
    const row = this._tree.querySelector<HTMLElement>(`[data-path="${CSS.escape(dir)}"]`);
    (row ?? this._tree).classList.add('jp-mod-dropTarget');
  }

  private _onDrop(event: DragEvent): void {
    this._clearDropTarget();
    if (!this._connection || !event.dataTransfer?.types.includes('Files')) {
      return;
    }
    event.preventDefault();
    event.stopPropagation();
    const dir = this._dropDir(event.target);
    const files: File[] = [];
    const folders: string[] = [];
    const items = Array.from(event.dataTransfer.items || []);
    Array.from(event.dataTransfer.files).forEach((file, i) => {
      // a dropped folder arrives as a File that cannot be read; say so instead of failing
      const entry = items[i]?.webkitGetAsEntry?.();
      if (entry?.isDirectory) {
        folders.push(file.name);
      } else {
        files.push(file);
      }
    });
    if (folders.length) {
      void showErrorMessage(
        'Upload',
        `Folders cannot be uploaded by drag-and-drop (export them as a tar instead): ${folders.join(', ')}`
      );
    }
    void this.upload(files, dir);
  }

  /** A drag from JupyterLab's file browser: host files, copied in by the frontend. */
  private _onHostDragOver(event: Drag.Event): void {
    if (!this._connection || !event.mimeData.hasData(CONTENTS_MIME)) {
      return;
    }
    event.preventDefault();
    event.stopPropagation();
    // the file browser offers 'move' only; nothing is moved: the host file stays where it is
    event.dropAction = event.supportedActions === 'copy' || event.supportedActions === 'copy-move' ||
      event.supportedActions === 'copy-link' || event.supportedActions === 'all'
      ? 'copy'
      : event.proposedAction;
    const dir = this._dropDir(event.target);
    this._clearDropTarget();
    const row = this._tree.querySelector<HTMLElement>(`[data-path="${CSS.escape(dir)}"]`);
    (row ?? this._tree).classList.add('jp-mod-dropTarget');
  }

  private _onHostDrop(event: Drag.Event): void {
    this._clearDropTarget();
    if (!this._connection || !event.mimeData.hasData(CONTENTS_MIME)) {
      return;
    }
    event.preventDefault();
    event.stopPropagation();
    const paths = event.mimeData.getData(CONTENTS_MIME);
    if (!Array.isArray(paths) || event.proposedAction === 'none') {
      event.dropAction = 'none';
      return;
    }
    event.dropAction = event.proposedAction;
    this._options.copyHostFiles(paths.filter(p => typeof p === 'string'), this._dropDir(event.target));
  }

  private _clearDropTarget(): void {
    this.node
      .querySelectorAll('.jp-mod-dropTarget')
      .forEach(n => n.classList.remove('jp-mod-dropTarget'));
  }

  private _onChanged(_: VfsConnection, changes: IChange[]): void {
    const dirs = new Set<string>();
    for (const change of changes) {
      const parent = dirname(change.path);
      if (this._listings.has(parent)) {
        dirs.add(parent);
      }
      if (change.kind === 'deleted') {
        // a deleted directory's listing (and everything under it) is gone
        for (const dir of [...this._listings.keys()]) {
          if (dir === change.path || dir.startsWith(change.path + '/')) {
            this._listings.delete(dir);
          }
        }
      }
    }
    if (dirs.size) {
      void this._load([...dirs]);
    }
  }

  private _onReset(): void {
    this._listings.clear();
    void this.refresh();
  }

  // ------------------------------------------------------------------ loading and rendering
  private async _load(dirs: string[]): Promise<void> {
    const connection = this._connection;
    if (!connection) {
      return;
    }
    const results = await Promise.all(
      dirs.map(dir =>
        connection.list(dir).then(
          entries => ({ dir, entries, error: null as unknown }),
          error => ({ dir, entries: null, error })
        )
      )
    );
    if (connection !== this._connection) {
      return; // switched kernels meanwhile
    }
    for (const { dir, entries, error } of results) {
      if (entries) {
        this._listings.set(dir, sortEntries(entries));
      } else {
        this._listings.delete(dir);
        if (dir !== this._root) {
          this._expanded.delete(dir);
        } else {
          this._rootError = describe(error);
        }
      }
    }
    if (this._listings.has(this._root)) {
      this._rootError = '';
    }
    // how payloads travel (binary buffers or base64): shown to tests and curious users
    this.node.dataset.encoding = connection.encoding;
    this._render();
  }

  private async _toggle(path: string): Promise<void> {
    if (this._expanded.has(path)) {
      // forget the hidden listings: they would be re-listed on every change event
      this._expanded.delete(path);
      for (const dir of [...this._listings.keys()]) {
        if (dir === path || dir.startsWith(path + '/')) {
          this._listings.delete(dir);
        }
      }
      this._render();
    } else {
      this._expanded.add(path);
      await this._load([path]);
    }
  }

  private _render(): void {
    this._renderCrumbs();
    if (!this._connection) {
      return;
    }
    this._message.hidden = true;
    this._tree.hidden = false;
    this._tree.replaceChildren();
    if (this._rootError && !this._listings.has(this._root)) {
      this._showMessage(`${this._root}: ${this._rootError}`);
      return;
    }
    const fragment = document.createDocumentFragment();
    this._renderDir(fragment, this._root, 0);
    if (!fragment.childNodes.length && this._listings.has(this._root)) {
      const empty = document.createElement('div');
      empty.className = 'jp-SandboxFiles-empty';
      empty.textContent =
        'This folder is empty. Drop files here from your desktop or from the file browser to copy them in.';
      fragment.append(empty);
    }
    this._tree.append(fragment);
  }

  private _renderDir(parent: DocumentFragment, dir: string, depth: number): void {
    const entries = this._listings.get(dir);
    if (!entries) {
      return;
    }
    for (const entry of entries.slice(0, MAX_ROWS_PER_DIR)) {
      const path = joinPath(dir, entry.name);
      const isDir = entry.type === 'dir';
      const expanded = isDir && this._expanded.has(path);
      const row = document.createElement('div');
      row.className = 'jp-SandboxFiles-item';
      row.dataset.path = path;
      row.dataset.type = entry.type;
      row.setAttribute('role', 'treeitem');
      row.style.paddingLeft = `${4 + depth * 14}px`;
      if (isDir) {
        row.setAttribute('aria-expanded', String(expanded));
      }
      if (path === this._selected) {
        row.classList.add('jp-mod-selected');
      }
      const caret = isDir
        ? (expanded ? caretDownIcon : caretRightIcon).element({ tag: 'span', className: 'jp-SandboxFiles-caret' })
        : spacer();
      const icon = (isDir ? folderIcon : entry.type === 'symlink' ? linkIcon : fileIcon).element({
        tag: 'span',
        className: 'jp-SandboxFiles-icon'
      });
      const name = document.createElement('span');
      name.className = 'jp-SandboxFiles-name';
      name.textContent = entry.name;
      const detail = document.createElement('span');
      detail.className = 'jp-SandboxFiles-detail';
      detail.textContent = isDir ? '' : entry.type === 'symlink' ? `→ ${entry.target}` : formatSize(entry.size);
      row.title = [
        path,
        entry.type === 'symlink' ? `symlink to ${entry.target}` : entry.type,
        isDir ? '' : `${entry.size} bytes`,
        `mode ${(entry.mode & 0o7777).toString(8).padStart(4, '0')}`,
        `modified ${new Date(entry.mtime * 1000).toLocaleString()}`
      ]
        .filter(Boolean)
        .join('\n');
      row.append(caret, icon, name, detail);
      parent.append(row);
      if (expanded) {
        this._renderDir(parent, path, depth + 1);
      }
    }
    if (entries.length > MAX_ROWS_PER_DIR) {
      const more = document.createElement('div');
      more.className = 'jp-SandboxFiles-more';
      more.style.paddingLeft = `${4 + depth * 14}px`;
      more.textContent = `… ${entries.length - MAX_ROWS_PER_DIR} more entries (use ls in a cell)`;
      parent.append(more);
    }
  }

  private _renderCrumbs(): void {
    this._crumbs.replaceChildren();
    if (!this._connection) {
      return;
    }
    const label = document.createElement('div');
    label.className = 'jp-SandboxFiles-kernel';
    label.textContent = this._label;
    label.title = `Files of the sandbox kernel of ${this._label}`;
    const path = document.createElement('div');
    path.className = 'jp-SandboxFiles-path';
    const parts = this._root.split('/').filter(Boolean);
    const crumb = (text: string, target: string) => {
      const link = document.createElement('span');
      link.className = 'jp-SandboxFiles-crumb';
      link.textContent = text;
      link.title = `Show ${target}`;
      link.dataset.root = target;
      link.addEventListener('click', () => this.setRoot(target));
      return link;
    };
    path.append(crumb('/', '/'));
    parts.forEach((part, i) => {
      if (i > 0) {
        path.append('/');
      }
      path.append(crumb(part, '/' + parts.slice(0, i + 1).join('/')));
    });
    this._crumbs.append(label, path);
  }

  // ------------------------------------------------------------------ helpers
  private _button(icon: LabIcon, title: string, onClick: () => void, name: string): HTMLElement {
    const button = document.createElement('button');
    button.className = 'jp-SandboxFiles-button';
    button.title = title;
    button.dataset.command = name;
    button.append(icon.element({ tag: 'span' }));
    button.addEventListener('click', () => {
      if (this._connection) {
        onClick();
      }
    });
    return button;
  }

  private _select(path: string | null): void {
    this._selected = path;
    this._tree.querySelectorAll('.jp-mod-selected').forEach(n => n.classList.remove('jp-mod-selected'));
    if (path) {
      this._tree.querySelector(`[data-path="${CSS.escape(path)}"]`)?.classList.add('jp-mod-selected');
    }
  }

  private _rowPath(target: EventTarget | null): string | null {
    const row = (target as HTMLElement | null)?.closest?.('.jp-SandboxFiles-item') as HTMLElement | null;
    return row?.dataset.path ?? null;
  }

  /** Where new folders and uploads go: the selected folder, the selected file's folder, or the root. */
  targetDir(): string {
    return this._targetDir();
  }

  private _targetDir(): string {
    const path = this._selected;
    if (!path) {
      return this._root;
    }
    return this.entryOf(path)?.type === 'dir' ? path : dirname(path);
  }

  private _dropDir(target: EventTarget | null): string {
    const path = this._rowPath(target);
    if (!path) {
      return this._root;
    }
    return this.entryOf(path)?.type === 'dir' ? path : dirname(path);
  }

  private _isUnderRoot(path: string): boolean {
    return this._root === '/' || path === this._root || path.startsWith(this._root + '/');
  }

  private _showMessage(text: string): void {
    this._renderCrumbs();
    this._message.textContent = text;
    this._message.hidden = false;
    this._tree.hidden = true;
  }

  /** A line at the panel's foot (progress of a transfer); '' hides it. */
  setStatus(text: string): void {
    this._setStatus(text);
  }

  private _setStatus(text: string): void {
    this._status.textContent = text;
    this._status.hidden = !text;
  }

  private async _error(title: string, error: unknown): Promise<void> {
    await showErrorMessage(title, describe(error));
  }

  private _connection: VfsConnection | null = null;
  private _label = '';
  /** The folder shown for each kernel, kept while the panel follows other notebooks. */
  private _roots = new WeakMap<VfsConnection, string>();
  private _root = HOME;
  private _rootError = '';
  private _selected: string | null = null;
  private _expanded = new Set<string>();
  private _listings = new Map<string, IEntry[]>();
  private _crumbs = document.createElement('div');
  private _tree = document.createElement('div');
  private _message = document.createElement('div');
  private _status = document.createElement('div');
  private _fileInput = document.createElement('input');
}

function sortEntries(entries: IEntry[]): IEntry[] {
  return [...entries].sort((a, b) => {
    const dirA = a.type === 'dir' ? 0 : 1;
    const dirB = b.type === 'dir' ? 0 : 1;
    return dirA - dirB || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
  });
}

function spacer(): HTMLElement {
  const span = document.createElement('span');
  span.className = 'jp-SandboxFiles-caret';
  return span;
}

function percent(done: number, total: number): string {
  return total > 0 ? `${Math.floor((done * 100) / total)}%` : '';
}

export function describe(error: unknown): string {
  if (error instanceof VfsError) {
    return `${error.message} (${error.code})`;
  }
  return error instanceof Error ? error.message : String(error);
}
