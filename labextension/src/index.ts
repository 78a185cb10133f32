/**
 * JupyterLab plugin: the "Sandbox files" side panel for notebooks running the sandbox kernel.
 */
import { JupyterFrontEnd, JupyterFrontEndPlugin } from '@jupyterlab/application';
import {
  Dialog,
  ICommandPalette,
  ISessionContext,
  Notification,
  showDialog,
  showErrorMessage,
  WidgetTracker
} from '@jupyterlab/apputils';
import { IEditorServices } from '@jupyterlab/codeeditor';
import { IEditorLanguageRegistry } from '@jupyterlab/codemirror';
import { IConsoleTracker } from '@jupyterlab/console';
import { PathExt } from '@jupyterlab/coreutils';
import { IFileBrowserFactory } from '@jupyterlab/filebrowser';
import { ILauncher } from '@jupyterlab/launcher';
import { IMainMenu } from '@jupyterlab/mainmenu';
import { INotebookTracker, NotebookPanel } from '@jupyterlab/notebook';
import { Kernel } from '@jupyterlab/services';
import { Widget } from '@lumino/widgets';
import {
  deleteIcon,
  downloadIcon,
  editIcon,
  LabIcon,
  newFolderIcon,
  refreshIcon,
  terminalIcon,
  textEditorIcon
} from '@jupyterlab/ui-components';

import { loadText, SandboxFileEditor } from './editor';
import { createReference } from './help';
import { hostExists, hostFolderOf, HostNames, readHostFile, saveToHost } from './hostfiles';
import { followCellLanguages } from './highlight';
import { SandboxTerminal, TerminalShell, vmTerminalIcon } from './terminal';
import { describe, HOME, SandboxFilesPanel } from './panel';
import { basename, formatSize, IEditRequest, VfsConnection, VfsError } from './vfs';
import { NotebookWorkspace } from './workspace';

import '../style/index.css';

/** kernel_info's `implementation` for the sandbox kernel (any kernelspec name). */
const IMPLEMENTATION = 'sandbox_kernel';
const PANEL_ID = 'sandbox-files';

const sandboxIcon = new LabIcon({
  name: 'sandbox-kernel:files',
  svgstr:
    '<svg xmlns="http://www.w3.org/2000/svg" width="16" viewBox="0 0 24 24">' +
    '<path class="jp-icon3" fill="#616161" d="M3 5h7l2 2h9v12H3z"/>' +
    '<path fill="#fff" d="M7 11h10v1.5H7zm0 3h7v1.5H7z"/></svg>'
});

namespace CommandIDs {
  export const open = 'sandbox-files:open';
  export const download = 'sandbox-files:download';
  export const rename = 'sandbox-files:rename';
  export const remove = 'sandbox-files:delete';
  export const newFolder = 'sandbox-files:new-folder';
  export const refresh = 'sandbox-files:refresh';
  export const save = 'sandbox-files:save';
  export const terminal = 'sandbox-terminal:open';
  export const vmTerminal = 'sandbox-terminal:open-vm';
  export const copyIn = 'sandbox-files:copy-into-sandbox';
  export const saveToHost = 'sandbox-files:save-to-notebook-folder';
  export const reference = 'sandbox-kernel:reference';
}

/** What the panel follows: a notebook or a console (both have a session and a kernel). */
interface ISessionWidget extends Widget {
  sessionContext: ISessionContext;
}

function isSessionWidget(widget: Widget | null | undefined): widget is ISessionWidget {
  return !!widget && !!(widget as any).sessionContext && typeof (widget as any).sessionContext.path === 'string';
}

/** The most host files one drop or "Copy into Sandbox" takes. */
const MAX_COPY_FILES = 100;

const plugin: JupyterFrontEndPlugin<void> = {
  id: 'sandbox-kernel-labextension:plugin',
  description: 'A side panel with the files of the sandbox kernel of the current notebook.',
  autoStart: true,
  requires: [INotebookTracker, IEditorServices, IEditorLanguageRegistry],
  optional: [ICommandPalette, ILauncher, IConsoleTracker, IFileBrowserFactory, IMainMenu],
  activate: (
    app: JupyterFrontEnd,
    notebooks: INotebookTracker,
    editorServices: IEditorServices,
    languages: IEditorLanguageRegistry,
    palette: ICommandPalette | null,
    launcher: ILauncher | null,
    consoles: IConsoleTracker | null,
    browsers: IFileBrowserFactory | null,
    mainMenu: IMainMenu | null
  ) => {
    const contents = app.serviceManager.contents;
    const editors = new WidgetTracker<SandboxFileEditor>({ namespace: 'sandbox-files-editor' });
    const connections = new WeakMap<Kernel.IKernelConnection, VfsConnection>();
    const autoOpened = new WeakSet<Kernel.IKernelConnection>();

    /** The editor tab of `path` (an existing one, else a new one); throws when it cannot be edited. */
    const openEditor = async (
      connection: VfsConnection,
      path: string,
      allowNew = false
    ): Promise<SandboxFileEditor> => {
      const existing = editors.find(e => e.connection === connection && e.path === path);
      if (existing) {
        app.shell.activateById(existing.id);
        return existing;
      }
      let text = '';
      try {
        text = await loadText(connection, path);
      } catch (error) {
        // `nano new.txt` edits a file that does not exist yet: saving creates it
        if (!(allowNew && error instanceof VfsError && error.code === 'ENOENT')) {
          throw error;
        }
      }
      const editor = new SandboxFileEditor(connection, path, text, panel.label, editorServices);
      editor.id = `sandbox-file-${Private.counter++}`;
      void editors.add(editor);
      app.shell.add(editor, 'main');
      app.shell.activateById(editor.id);
      return editor;
    };

    const openFile = async (connection: VfsConnection, path: string): Promise<void> => {
      try {
        await openEditor(connection, path);
      } catch (error) {
        const binary = error instanceof VfsError && (error.code === 'EILSEQ' || error.code === 'EFBIG');
        const answer = await showDialog({
          title: `Cannot open ${path}`,
          body: describe(error),
          buttons: binary
            ? [Dialog.cancelButton(), Dialog.okButton({ label: 'Download' })]
            : [Dialog.okButton({ label: 'Close' })]
        });
        if (binary && answer.button.accept) {
          await panel.download(path);
        }
      }
    };

    const terminals = new WidgetTracker<SandboxTerminal>({ namespace: 'sandbox-terminal' });
    const openTerminal = (connection: VfsConnection, shell: TerminalShell): void => {
      const terminal = new SandboxTerminal(connection.kernel, panel.label, shell);
      terminal.id = `sandbox-terminal-${Private.counter++}`;
      void terminals.add(terminal);
      app.shell.add(terminal, 'main', { mode: 'split-bottom' });
      app.shell.activateById(terminal.id);
    };

    // ---------------------------------------------------------------- host files (the user's rights)
    /** Copy host files (contents API paths) into the sandbox folder `dir`, through the panel's upload. */
    const copyHostFiles = async (paths: string[], dir: string): Promise<void> => {
      const connection = panel.connection;
      if (!connection) {
        await showDialog({
          title: 'Copy into Sandbox',
          body: 'Open or select a notebook or console that runs the Sandbox kernel first: the files go into its sandbox.',
          buttons: [Dialog.okButton({ label: 'Close' })]
        });
        return;
      }
      if (paths.length > MAX_COPY_FILES) {
        await showErrorMessage('Copy into Sandbox', `${paths.length} files at once is more than ${MAX_COPY_FILES}: copy fewer, or upload a tar.`);
        return;
      }
      const files: File[] = [];
      for (const path of paths) {
        const name = PathExt.basename(contents.localPath(path));
        try {
          // refused before the bytes are fetched when the sandbox cannot hold them
          const model = await contents.get(path, { content: false });
          const usage = await connection.usage().catch(() => null);
          if (usage && model.type !== 'directory' && typeof model.size === 'number') {
            const free = Math.max(0, usage.bytes_max - usage.bytes_used);
            if (model.size > free) {
              throw new VfsError(
                'ENOSPC',
                `${name} is ${formatSize(model.size)}, but the sandbox has ${formatSize(free)} free` +
                  (usage.hint ? ` (${usage.hint})` : '')
              );
            }
          }
          panel.setStatus(`Reading ${name} from the notebook folder…`);
          files.push(new File([await readHostFile(contents, path)], name));
        } catch (error) {
          panel.setStatus('');
          await showErrorMessage(`Cannot copy ${name} into the sandbox`, describe(error));
        }
      }
      panel.setStatus('');
      await panel.upload(files, dir);
    };

    const panel = new SandboxFilesPanel({
      openFile: (c, p) => void openFile(c, p),
      openTerminal,
      copyHostFiles: (paths, dir) => void copyHostFiles(paths, dir)
    });
    panel.id = PANEL_ID;
    panel.title.icon = sandboxIcon;
    panel.title.caption = 'Sandbox files';
    let panelAdded = false;

    // ---------------------------------------------------------------- following the kernel
    // `nano FILE` in a cell: the file opens here, and the cell goes on once its tab is closed
    const editOnRequest = async (connection: VfsConnection, request: IEditRequest): Promise<void> => {
      const answer = (state: 'opened' | 'closed' | 'failed', message = '') =>
        connection.edited(request.edit, state, message).catch(() => undefined);
      let editor: SandboxFileEditor;
      try {
        editor = await openEditor(connection, request.path, true);
      } catch (error) {
        await answer('failed', error instanceof Error ? error.message : String(error));
        return;
      }
      editor.disposed.connect(async () => {
        await editor.settled();
        await answer('closed');
      });
      await answer('opened');
    };

    const connectionFor = (kernel: Kernel.IKernelConnection): VfsConnection => {
      let connection = connections.get(kernel);
      if (!connection || connection.isDisposed) {
        const created = new VfsConnection(kernel);
        created.editRequested.connect((_, request) => void editOnRequest(created, request));
        // how many times a comm (re)opened: shown to tests (data-comm-opens), which wait for it
        created.opened.connect(() => (panel.node.dataset.commOpens = String(++Private.commOpens)));
        // the kernel's notices (workspace restored, mounts, files not kept): notifications, which
        // the notebook does not save (without this extension they are plain output in the cell)
        created.notice.connect((_, notice) => {
          if (notice.level === 'warning') {
            Notification.warning(notice.text, { autoClose: false });
          } else {
            Notification.info(notice.text, { autoClose: 10000 });
          }
        });
        void created.connect().catch(() => undefined); // open now: `nano` needs it before any listing
        connection = created;
        connections.set(kernel, connection);
      }
      return connection;
    };

    // every sandbox notebook tells its kernel its workspace id and path (--persist), also one
    // that is not the current notebook (restored at start, or running in the background)
    const followers = new WeakMap<Kernel.IKernelConnection, NotebookWorkspace>();
    const isSandbox = async (kernel: Kernel.IKernelConnection): Promise<boolean> => {
      try {
        return (await kernel.info).implementation === IMPLEMENTATION;
      } catch {
        return false;
      }
    };
    const follow = async (notebook: NotebookPanel): Promise<void> => {
      const kernel = notebook.sessionContext.session?.kernel;
      if (!kernel || followers.has(kernel) || notebook.isDisposed || !(await isSandbox(kernel))) {
        return;
      }
      if (!followers.has(kernel) && !kernel.isDisposed && !notebook.isDisposed) {
        followers.set(kernel, new NotebookWorkspace(notebook, connectionFor(kernel)));
      }
    };
    notebooks.widgetAdded.connect((_, notebook) => {
      notebook.sessionContext.kernelChanged.connect(() => void follow(notebook));
      void notebook.sessionContext.ready.then(() => follow(notebook)).catch(() => undefined);
    });

    const highlighted = new WeakSet<NotebookPanel>();
    const hostNames = new WeakMap<Kernel.IKernelConnection, HostNames>();
    let generation = 0;
    // the kernel the panel's state was decided for (undefined: nothing decided yet)
    let decidedFor: Kernel.IKernelConnection | null | undefined = undefined;
    // the notebook or console the panel follows: the last one that was current
    let followed: ISessionWidget | null = null;
    const update = async (): Promise<void> => {
      const current = ++generation;
      const widget = followed;
      const kernel = widget?.sessionContext.session?.kernel ?? null;
      decidedFor = kernel;
      if (!widget || !kernel) {
        panel.setConnection(null, '', widget ? `${widget.title.label} has no kernel.` : undefined);
        return;
      }
      let implementation = '';
      try {
        implementation = (await kernel.info).implementation;
      } catch {
        implementation = '';
      }
      if (current !== generation) {
        return; // a newer update superseded this one
      }
      if (implementation !== IMPLEMENTATION) {
        panel.setConnection(null, '', `${widget.title.label} does not use the Sandbox kernel.`);
        return;
      }
      if (!panelAdded) {
        app.shell.add(panel, 'right', { rank: 150 }); // beside the file browser: host files drag across
        panelAdded = true;
      }
      const connection = connectionFor(kernel);
      panel.setConnection(connection, widget.title.label);
      panel.hostFolder = hostFolderOf(widget.sessionContext.path);
      const names = hostNames.get(kernel);
      if (names && !names.connection.isDisposed) {
        names.folder = panel.hostFolder;
      } else {
        // the count is shown to tests (data-host-names) once the kernel has the names
        const shown = (count: number) => {
          if (panel.connection === connection) {
            panel.node.dataset.hostNames = String(count);
          }
        };
        hostNames.set(kernel, new HostNames(contents, connection, panel.hostFolder, shown));
      }
      if (widget instanceof NotebookPanel) {
        void follow(widget);
        if (!highlighted.has(widget)) {
          highlighted.add(widget);
          followCellLanguages(widget, languages);
        }
      }
      if (!autoOpened.has(kernel)) {
        // show the panel once per kernel, without taking the keyboard from the notebook
        autoOpened.add(kernel);
        const focused = document.activeElement as HTMLElement | null;
        app.shell.activateById(panel.id);
        focused?.focus?.();
      }
    };

    const watched = new WeakSet<ISessionWidget>();
    const setFollowed = (widget: ISessionWidget | null): void => {
      if (widget && !widget.isDisposed) {
        followed = widget;
        if (!watched.has(widget)) {
          watched.add(widget);
          // the session and its kernel arrive after the widget: re-decide whenever the
          // followed widget's kernel is not the one the panel was set up for
          const recheck = () => {
            if (followed === widget && widget.sessionContext.session?.kernel !== decidedFor) {
              void update();
            }
          };
          const context = widget.sessionContext;
          context.sessionChanged.connect(recheck);
          context.kernelChanged.connect(recheck);
          context.statusChanged.connect(recheck);
          context.connectionStatusChanged.connect(recheck);
          context.propertyChanged.connect(() => followed === widget && void update()); // a rename
          widget.disposed.connect(() => {
            if (followed === widget) {
              setFollowed(notebooks.currentWidget ?? consoles?.currentWidget ?? null);
            }
          });
        }
      } else if (!followed || followed.isDisposed) {
        followed = null;
      }
      void update();
    };
    notebooks.currentChanged.connect((_, notebook) => setFollowed(notebook));
    consoles?.currentChanged.connect((_, console) => setFollowed(console));
    // going back to a notebook or console that its tracker still holds as current
    app.shell.currentChanged?.connect((_, change) => {
      if (isSessionWidget(change.newValue) && change.newValue !== followed) {
        setFollowed(change.newValue);
      }
    });

    // ---------------------------------------------------------------- commands
    const contextPath = (): string | null => {
      const node = app.contextMenuHitTest(n => !!n.dataset.path && n.classList.contains('jp-SandboxFiles-item'));
      return node?.dataset.path ?? panel.selected;
    };
    const isFile = () => {
      const path = contextPath();
      return !!path && panel.entryOf(path)?.type !== 'dir';
    };
    const hostSelection = (): string[] => {
      const browser = browsers?.tracker.currentWidget;
      return browser ? Array.from(browser.selectedItems()).filter(i => i.type !== 'directory').map(i => i.path) : [];
    };
    const { commands } = app;
    commands.addCommand(CommandIDs.open, {
      label: 'Open',
      icon: textEditorIcon,
      isEnabled: isFile,
      execute: () => {
        const path = contextPath();
        if (path && panel.connection) {
          return openFile(panel.connection, path);
        }
      }
    });
    commands.addCommand(CommandIDs.download, {
      label: 'Download',
      icon: downloadIcon,
      isEnabled: isFile,
      execute: () => {
        const path = contextPath();
        return path ? panel.download(path) : undefined;
      }
    });
    commands.addCommand(CommandIDs.rename, {
      label: 'Rename…',
      icon: editIcon,
      execute: () => {
        const path = contextPath();
        return path ? panel.rename(path) : undefined;
      }
    });
    commands.addCommand(CommandIDs.remove, {
      label: 'Delete…',
      icon: deleteIcon,
      execute: () => {
        const path = contextPath();
        return path ? panel.delete(path) : undefined;
      }
    });
    commands.addCommand(CommandIDs.newFolder, {
      label: 'New Folder…',
      icon: newFolderIcon,
      execute: () => panel.newFolder()
    });
    commands.addCommand(CommandIDs.refresh, {
      label: 'Refresh',
      icon: refreshIcon,
      execute: () => panel.refresh()
    });
    commands.addCommand(CommandIDs.copyIn, {
      label: 'Copy into Sandbox',
      caption: "Copy the selected files into the current Sandbox notebook's files (read with your rights)",
      icon: sandboxIcon,
      isEnabled: () => hostSelection().length > 0,
      execute: () => copyHostFiles(hostSelection(), panel.connection ? panel.targetDir() : HOME)
    });
    commands.addCommand(CommandIDs.saveToHost, {
      label: 'Save to Notebook Folder',
      caption: 'Write this file next to the notebook on the host (with your rights)',
      icon: downloadIcon,
      isEnabled: isFile,
      execute: async () => {
        const path = contextPath();
        const connection = panel.connection;
        if (!path || !connection) {
          return;
        }
        const target = PathExt.join(panel.hostFolder, basename(path));
        const shown = target.includes('/') ? target : `${target} (next to the notebook)`;
        try {
          if (await hostExists(contents, target)) {
            const replace = await showDialog({
              title: 'Replace?',
              body: `${shown} already exists on the host. Replace it with the sandbox's ${path}?`,
              buttons: [Dialog.cancelButton(), Dialog.warnButton({ label: 'Replace' })]
            });
            if (!replace.button.accept) {
              return;
            }
          }
          const data = await connection.readAll(path, (done, total) =>
            panel.setStatus(`Reading ${basename(path)}… ${total ? Math.floor((done * 100) / total) : 0}%`)
          );
          await saveToHost(contents, target, data, (done, total) =>
            panel.setStatus(`Saving ${basename(path)}… ${total ? Math.floor((done * 100) / total) : 0}%`)
          );
          panel.setStatus('');
          Notification.success(`Saved ${basename(path)} to ${shown}`, { autoClose: 5000 });
        } catch (error) {
          panel.setStatus('');
          await showErrorMessage(`Cannot save ${path} to the notebook folder`, describe(error));
        }
      }
    });
    commands.addCommand(CommandIDs.reference, {
      label: 'Sandbox Kernel Reference',
      caption: 'What the Sandbox kernel offers: cells, files, limits, and how to ask it',
      execute: () => {
        const existing = document.getElementById('sandbox-kernel-reference');
        if (existing) {
          app.shell.activateById('sandbox-kernel-reference');
          return;
        }
        const widget = createReference();
        app.shell.add(widget, 'main');
        app.shell.activateById(widget.id);
      }
    });
    mainMenu?.helpMenu.addGroup([{ command: CommandIDs.reference }], 30);
    palette?.addItem({ command: CommandIDs.reference, category: 'Sandbox' });
    app.contextMenu.addItem({
      command: CommandIDs.copyIn,
      selector: '.jp-DirListing-item[data-isdir="false"]',
      rank: 12
    });
    commands.addCommand(CommandIDs.save, {
      label: 'Save to Sandbox',
      execute: () => editors.currentWidget?.save()
    });
    // the terminals open on the current sandbox notebook's kernel (the palette and the
    // launcher have no notebook of their own)
    const terminalCommand = (shell: TerminalShell) => ({
      execute: () => {
        if (panel.connection) {
          openTerminal(panel.connection, shell);
          return;
        }
        return showDialog({
          title: shell === 'vm' ? 'Sandbox VM terminal' : 'Sandbox terminal',
          body: 'Open or select a notebook or console that runs the Sandbox kernel first: the terminal opens in its sandbox.',
          buttons: [Dialog.okButton({ label: 'Close' })]
        });
      }
    });
    commands.addCommand(CommandIDs.terminal, {
      label: args => (args.isPalette ? 'New Sandbox Terminal' : 'Sandbox terminal'),
      caption: "A shell in the current notebook's sandbox (the emulated shell)",
      icon: terminalIcon,
      ...terminalCommand('sh')
    });
    commands.addCommand(CommandIDs.vmTerminal, {
      label: args => (args.isPalette ? 'New Sandbox VM Terminal' : 'Sandbox VM terminal'),
      caption: "A login shell in the current notebook's VM, with its files",
      icon: vmTerminalIcon,
      ...terminalCommand('vm')
    });
    for (const command of [CommandIDs.terminal, CommandIDs.vmTerminal]) {
      palette?.addItem({ command, category: 'Sandbox', args: { isPalette: true } });
      launcher?.add({ command, category: 'Other', rank: command === CommandIDs.terminal ? 10 : 11 });
    }
    commands.addKeyBinding({ command: CommandIDs.save, keys: ['Accel S'], selector: '.jp-SandboxFileEditor' });

    const selector = '.jp-SandboxFiles-item';
    [CommandIDs.open, CommandIDs.download, CommandIDs.saveToHost, CommandIDs.rename, CommandIDs.remove].forEach((command, i) =>
      app.contextMenu.addItem({ command, selector, rank: i + 1 })
    );
    app.contextMenu.addItem({ command: CommandIDs.newFolder, selector: '.jp-SandboxFiles-tree', rank: 10 });
    app.contextMenu.addItem({ command: CommandIDs.refresh, selector: '.jp-SandboxFiles-tree', rank: 11 });
  }
};

namespace Private {
  export let counter = 0;
  export let commOpens = 0;
}

export default plugin;
