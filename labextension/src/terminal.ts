/**
 * The "Sandbox terminal": xterm.js in a main-area tab over the kernel's `sandbox.terminal` comm
 * (docs/comm-protocol.md). Keys go to the kernel as typed; the kernel edits the line, runs it
 * in a shell of the sandbox and sends the output back. The "Sandbox VM terminal" is the same
 * tab over a login shell on a pty in the notebook's VM (shell 'vm': the guest edits the line).
 * The tab follows its size (fit addon).
 */
import { MainAreaWidget } from '@jupyterlab/apputils';
import { Kernel, KernelMessage } from '@jupyterlab/services';
import { LabIcon, terminalIcon } from '@jupyterlab/ui-components';
import { Message } from '@lumino/messaging';
import { Widget } from '@lumino/widgets';
import { FitAddon } from '@xterm/addon-fit';
import { Terminal } from '@xterm/xterm';

import '@xterm/xterm/css/xterm.css';

export const TERMINAL_TARGET = 'sandbox.terminal';

/** The emulated shell of the sandbox, or a login shell in its VM. */
export type TerminalShell = 'sh' | 'vm';

/** A terminal window with "VM" in it. */
export const vmTerminalIcon = new LabIcon({
  name: 'sandbox-kernel:vm-terminal',
  svgstr:
    '<svg xmlns="http://www.w3.org/2000/svg" width="16" viewBox="0 0 24 24">' +
    '<path class="jp-icon3" fill="#616161" d="M2 4h20v16H2zm2 4v10h16V8z"/>' +
    '<text class="jp-icon3" fill="#616161" x="12" y="16.5" font-size="8" font-family="sans-serif" ' +
    'font-weight="bold" text-anchor="middle">VM</text></svg>'
});

class TerminalView extends Widget {
  constructor() {
    super();
    this.addClass('jp-SandboxTerminal-view');
    this.term.loadAddon(this.fitAddon);
  }

  readonly term = new Terminal({ cursorBlink: true, convertEol: false, fontSize: 13, scrollback: 5000 });
  readonly fitAddon = new FitAddon();
  private _opened = false;

  protected onAfterAttach(msg: Message): void {
    super.onAfterAttach(msg);
    if (!this._opened) {
      this._opened = true;
      this.term.open(this.node);
    }
    this.refit();
  }

  protected onResize(msg: Widget.ResizeMessage): void {
    super.onResize(msg);
    this.refit();
  }

  protected onAfterShow(msg: Message): void {
    super.onAfterShow(msg);
    this.refit();
  }

  protected onActivateRequest(msg: Message): void {
    this.term.focus();
  }

  refit(): void {
    if (this._opened && this.isVisible && this.node.clientWidth > 0) {
      this.fitAddon.fit();
    }
  }

  dispose(): void {
    this.term.dispose();
    super.dispose();
  }
}

export class SandboxTerminal extends MainAreaWidget<TerminalView> {
  constructor(
    readonly kernel: Kernel.IKernelConnection,
    label: string,
    readonly shell: TerminalShell = 'sh'
  ) {
    super({ content: new TerminalView() });
    this.addClass('jp-SandboxTerminal');
    this.node.dataset.shell = shell;
    this.title.label = shell === 'vm' ? 'Sandbox VM terminal' : 'Sandbox terminal';
    this.title.caption =
      shell === 'vm' ? `A login shell in the VM of ${label}` : `A shell in the sandbox of ${label}`;
    this.title.icon = shell === 'vm' ? vmTerminalIcon : terminalIcon;
    this.title.closable = true;
    const term = this.content.term;
    term.onData(data => this._send({ type: 'input', data }));
    term.onResize(({ cols, rows }) => this._send({ type: 'resize', cols, rows }));
    kernel.statusChanged.connect(this._onStatus, this);
    this._open();
  }

  /** `running` until the shell ends (exit, Ctrl-D) or the kernel goes away. */
  get state(): string {
    return this.node.dataset.state || '';
  }

  dispose(): void {
    if (this.isDisposed) {
      return;
    }
    this.kernel.statusChanged.disconnect(this._onStatus, this);
    if (this._comm && !this._comm.isDisposed) {
      try {
        this._comm.close(); // the kernel stops the running command
      } catch {
        // the kernel may be gone already
      }
    }
    this._comm = null;
    super.dispose();
  }

  private _open(): void {
    const term = this.content.term;
    try {
      this._comm = this.kernel.createComm(TERMINAL_TARGET);
    } catch (error) {
      this._end(`cannot open the sandbox terminal: ${error}`);
      return;
    }
    this._comm.onMsg = (msg: KernelMessage.ICommMsgMsg) => {
      const data = msg.content.data as any;
      if (data?.type === 'output' && typeof data.data === 'string') {
        term.write(data.data);
      } else if (data?.type === 'exit') {
        this._end(`the shell exited (status ${data.status})`);
      } else if (data?.event === 'open') {
        this.node.dataset.state = 'running';
        // the fit may have changed the size while the comm was opening
        this._send({ type: 'resize', cols: term.cols, rows: term.rows });
      }
    };
    this._comm.onClose = () => this._end('the kernel closed the terminal');
    this._comm.open({ cols: term.cols, rows: term.rows, shell: this.shell });
  }

  private _send(data: Record<string, unknown>): void {
    if (this._comm && !this._comm.isDisposed && this.state === 'running') {
      this._comm.send(data as any);
    }
  }

  private _end(why: string): void {
    if (this.state === 'ended') {
      return;
    }
    this.node.dataset.state = 'ended';
    this.content.term.write(`\r\n\x1b[2m[${why}; close this tab]\x1b[0m\r\n`);
    if (this._comm && !this._comm.isDisposed) {
      try {
        this._comm.close();
      } catch {
        // already gone
      }
    }
    this._comm = null;
  }

  private _onStatus(_: Kernel.IKernelConnection, status: Kernel.Status): void {
    if (status === 'restarting' || status === 'autorestarting' || status === 'dead') {
      this._end('the kernel restarted: its sandbox is gone');
    }
  }

  private _comm: Kernel.IComm | null = null;
}
