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

/** How long a request waits for a running command's output to arrive. */
const SETTLE_MS = 1500;
/** How long the select-all-and-copy fallback may take. */
const SELECTION_MS = 2000;

export class TerminalCapture implements vscode.Disposable {
  private readonly rings = new Map<vscode.Terminal, OutputRing>();
  /** Per terminal, the reading of its newest command's output. */
  private readonly reading = new Map<vscode.Terminal, Promise<void>>();
  /** Terminals whose newest command streamed no output to us. VS Code
   * batches a command's output for 50 ms and drops the batch when the
   * command ends first, so a fast command's output can be missing. */
  private readonly silent = new Set<vscode.Terminal>();
  private readonly subs: vscode.Disposable[] = [];

  constructor(private readonly log: (line: string) => void) {
    const onStart = (vscode.window as unknown as { onDidStartTerminalShellExecution?: StartEvent }).onDidStartTerminalShellExecution;
    if (onStart) this.subs.push(onStart((e) => this.record(e)));
    this.subs.push(
      vscode.window.onDidCloseTerminal((t) => {
        this.rings.delete(t);
        this.reading.delete(t);
        this.silent.delete(t);
      }),
    );
  }

  private record(e: ShellExecutionStart): void {
    this.reading.set(e.terminal, this.read(e));
  }

  private async read(e: ShellExecutionStart): Promise<void> {
    let ring = this.rings.get(e.terminal);
    if (!ring) this.rings.set(e.terminal, (ring = new OutputRing()));
    if (e.execution.commandLine?.value) ring.append(`$ ${e.execution.commandLine.value}\n`);
    let chunks = 0;
    try {
      for await (const chunk of e.execution.read()) {
        ring.append(chunk);
        chunks++;
      }
      if (chunks === 0) this.silent.add(e.terminal);
      else this.silent.delete(e.terminal);
    } catch (err) {
      this.log(`terminal output: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  async output(p: TerminalOutputParams): Promise<TerminalOutputResult> {
    const term = vscode.window.activeTerminal;
    if (!term) return { available: false, reason: 'no terminal is open' };
    const max = p.maxChars > 0 ? p.maxChars : 16 * 1024;
    // A command that just printed may still be streaming to us (the
    // terminal renders before our copy arrives): give its stream a moment
    // to end, so "run it, then ask" sees the output.
    const pending = this.reading.get(term);
    if (pending) await Promise.race([pending, new Promise((r) => setTimeout(r, SETTLE_MS))]);
    const text = this.rings.get(term)?.read(max) ?? '';
    if (text && !this.silent.has(term)) return { available: true, name: term.name, text };
    // No stream, or the newest command's output went missing: the
    // terminal's own buffer has it.
    // In a browser (code-server) reading the clipboard needs a permission
    // the page may never get: do not wait on it for long.
    const buffer = await Promise.race([this.viaSelection(), new Promise<string>((r) => setTimeout(() => r(''), SELECTION_MS))]);
    if (buffer.trim()) return { available: true, name: term.name, text: scrubSecrets(tail(stripAnsi(buffer), max)).trim() };
    if (text) return { available: true, name: term.name, text };
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
