// editor/terminalOutput: the active terminal's recent output, for an
// @terminal mention. Shell integration (VS Code 1.93+, feature-detected
// since the extension supports 1.90) streams each command's output; we
// keep the newest part per terminal. A terminal without it (an old shell,
// integration off) falls back to the terminal's buffer through the
// selection commands, with the clipboard put back afterwards.
import * as vscode from 'vscode';
import type { TerminalOutputParams, TerminalOutputResult } from '../protocol.gen';
import { OutputRing, scrubSecrets, stripAnsi, tail } from '../terminalText';

interface ShellExecution {
  commandLine?: { value: string };
  read(): AsyncIterable<string>;
}
interface ShellExecutionStart {
  terminal: vscode.Terminal;
  execution: ShellExecution;
}
type StartEvent = (listener: (e: ShellExecutionStart) => void) => vscode.Disposable;

export class TerminalCapture implements vscode.Disposable {
  private readonly rings = new Map<vscode.Terminal, OutputRing>();
  private readonly subs: vscode.Disposable[] = [];

  constructor(private readonly log: (line: string) => void) {
    const onStart = (vscode.window as unknown as { onDidStartTerminalShellExecution?: StartEvent }).onDidStartTerminalShellExecution;
    if (onStart) this.subs.push(onStart((e) => void this.record(e)));
    this.subs.push(vscode.window.onDidCloseTerminal((t) => this.rings.delete(t)));
  }

  private async record(e: ShellExecutionStart): Promise<void> {
    let ring = this.rings.get(e.terminal);
    if (!ring) this.rings.set(e.terminal, (ring = new OutputRing()));
    if (e.execution.commandLine?.value) ring.append(`$ ${e.execution.commandLine.value}\n`);
    try {
      for await (const chunk of e.execution.read()) ring.append(chunk);
    } catch (err) {
      this.log(`terminal output: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  async output(p: TerminalOutputParams): Promise<TerminalOutputResult> {
    const term = vscode.window.activeTerminal;
    if (!term) return { available: false, reason: 'no terminal is open' };
    const max = p.maxChars > 0 ? p.maxChars : 16 * 1024;
    const text = this.rings.get(term)?.read(max) ?? '';
    if (text) return { available: true, name: term.name, text };
    const buffer = await this.viaSelection();
    if (buffer) return { available: true, name: term.name, text: scrubSecrets(tail(stripAnsi(buffer), max)).trim() };
    return { available: false, name: term.name, reason: 'the active terminal has no output GoVibe can read (shell integration is off or nothing ran yet)' };
  }

  /** The active terminal's whole buffer via select-all and copy; the clipboard is restored. */
  private async viaSelection(): Promise<string> {
    const saved = await vscode.env.clipboard.readText();
    try {
      await vscode.env.clipboard.writeText('');
      await vscode.commands.executeCommand('workbench.action.terminal.selectAll');
      await vscode.commands.executeCommand('workbench.action.terminal.copySelection');
      await vscode.commands.executeCommand('workbench.action.terminal.clearSelection');
      return await vscode.env.clipboard.readText();
    } catch (err) {
      this.log(`terminal selection: ${err instanceof Error ? err.message : String(err)}`);
      return '';
    } finally {
      await vscode.env.clipboard.writeText(saved);
    }
  }

  dispose(): void {
    for (const s of this.subs) s.dispose();
    this.rings.clear();
  }
}
