/**
 * "Sandbox Kernel Reference" in the Help menu: the kernel's documentation as a tab, shipped with
 * the extension (so it matches the installed kernel and needs no network). The kernel's own
 * `help_links` stay empty: JupyterLab opens only http(s) links there, and the package serves no
 * pages; the kernel's answers (`%help`, `%lsmagic`, `help`, `CMD --help`) are named here.
 */
import { MainAreaWidget } from '@jupyterlab/apputils';
import { Widget } from '@lumino/widgets';

type Section = [string, (string | [string, string])[]];

/** [heading, paragraphs or [code, what it does] rows]. */
const SECTIONS: Section[] = [
  [
    'What runs where',
    [
      'Every notebook (or console) with the Sandbox kernel gets a machine of its own. Cells are bash ' +
        'by default: a bash-compatible shell with coreutils, grep, sed, awk, jq, tar... over an in-memory ' +
        'filesystem. Nothing runs on the host and no host file is visible.',
      ['%%js', 'the cell is JavaScript (QuickJS), with node-style fs, path and process on the same files'],
      ['%%vm', 'the cell is bash in a real Linux microVM (Python, pip, curl, git); /workspace is synced both ways'],
      ['%%vm --root', 'the same as root'],
      ['display FILE', 'show an image, SVG, HTML, Markdown or JSON file under the cell']
    ]
  ],
  [
    'Your files',
    [
      'Files live in /workspace (the current folder) and /home/user, for as long as the kernel runs ' +
        '(unless the admin keeps them across restarts). The "Sandbox files" panel on the left shows them: ' +
        'open, edit, download, rename, delete; the terminal buttons open a shell in the sandbox or its VM.',
      'Files next to the notebook are on the host, outside the sandbox. Bring them in from JupyterLab\'s ' +
        'file browser: drag them onto "Sandbox files", or right-click them and choose "Copy into Sandbox". ' +
        'Files from your desktop: drop them onto the panel, or use its upload button. To keep a result next ' +
        'to the notebook: right-click it in "Sandbox files", "Save to Notebook Folder".'
    ]
  ],
  [
    'Limits',
    [
      'Each cell has a wall time, output, memory and file-space limits. A message that meets one says ' +
        'how to raise it within what the admin allows.',
      ['%limits', 'show every limit and its ceiling'],
      ['%limits vfs_bytes=1G wall_time=30m', 'raise (or lower) limits for the next cells']
    ]
  ],
  [
    'Asking the kernel',
    [
      ['%lsmagic', 'every magic'],
      ['%help', 'an overview; %help NAME: a command, builtin or magic'],
      ['help', 'the shell\'s builtins; ls /usr/bin: its commands; CMD --help: one command'],
      ['%save snap.tar / %load snap.tar', 'a snapshot of the files'],
      ['%vm status', 'the VM, its size and network']
    ]
  ]
];

class ReferenceView extends Widget {
  constructor() {
    super();
    this.addClass('jp-SandboxHelp');
    this.node.tabIndex = 0;
    const title = document.createElement('h1');
    title.textContent = 'Sandbox kernel';
    this.node.append(title);
    for (const [heading, items] of SECTIONS) {
      const h = document.createElement('h2');
      h.textContent = heading;
      this.node.append(h);
      let table: HTMLTableElement | null = null;
      for (const item of items) {
        if (typeof item === 'string') {
          const p = document.createElement('p');
          p.textContent = item;
          this.node.append(p);
          table = null;
          continue;
        }
        if (!table) {
          table = document.createElement('table');
          this.node.append(table);
        }
        const row = table.insertRow();
        const code = document.createElement('code');
        code.textContent = item[0];
        row.insertCell().append(code);
        row.insertCell().textContent = item[1];
      }
    }
  }
}

export function createReference(): MainAreaWidget<Widget> {
  const widget = new MainAreaWidget({ content: new ReferenceView() });
  widget.id = 'sandbox-kernel-reference';
  widget.title.label = 'Sandbox Kernel Reference';
  widget.title.closable = true;
  return widget;
}
