// The host owns the transcript. The chat webview has no
// retainContextWhenHidden, so while it is hidden (or reloading) live chat
// events are held here and replayed, in seq order and without duplicates,
// once the webview has rendered a fresh session/load snapshot. Pure: no
// vscode import. Used only on the extension host's single thread.
import type { ChatEvent, ConfirmClosed, ConfirmRequest } from './protocol.gen';

export type Deliverable =
  | { type: 'event'; event: ChatEvent }
  | { type: 'confirm'; request: ConfirmRequest }
  | { type: 'confirmClosed'; closed: ConfirmClosed };

export interface TranscriptBufferOptions {
  /** Delivers to the webview; only called while the buffer is open. */
  post(message: Deliverable): void;
  /** Events held per session before the oldest are dropped. */
  maxEvents?: number;
}

export class TranscriptBuffer {
  private sessionId: string | undefined;
  private lastSeq = 0;
  private open = false;
  private readonly held: ChatEvent[] = [];
  private readonly heldConfirms = new Map<string, ConfirmRequest>();
  private readonly closed: ConfirmClosed[] = [];
  private readonly maxEvents: number;

  constructor(private readonly opts: TranscriptBufferOptions) {
    this.maxEvents = opts.maxEvents ?? 20000;
  }

  get currentSession(): string | undefined {
    return this.sessionId;
  }

  get lastDeliveredSeq(): number {
    return this.lastSeq;
  }

  get isOpen(): boolean {
    return this.open;
  }

  /** The webview went away (hidden, disposed) or a snapshot is being fetched. */
  hold(): void {
    this.open = false;
  }

  /** Switches the followed session without delivering anything. */
  follow(sessionId: string | undefined): void {
    if (sessionId !== this.sessionId) {
      this.sessionId = sessionId;
      this.lastSeq = 0;
      this.held.length = 0;
      this.heldConfirms.clear();
      this.closed.length = 0;
    }
  }

  /**
   * The webview rendered a snapshot of `sessionId` up to `baseSeq` holding
   * the confirmations in `pending`. Replays what arrived after it and opens.
   */
  opened(sessionId: string | undefined, baseSeq: number, pending: readonly ConfirmRequest[]): void {
    if (sessionId !== this.sessionId) {
      // Events held for another session are not in this snapshot's stream.
      this.follow(sessionId);
    }
    this.lastSeq = Math.max(baseSeq, 0);
    this.open = true;
    const events = this.held.splice(0).sort((a, b) => a.seq - b.seq);
    for (const event of events) this.deliverEvent(event);
    const shown = new Set(pending.map((p) => p.id));
    const closed = new Set(this.closed.map((c) => c.id));
    for (const [id, request] of this.heldConfirms) {
      if (!shown.has(id) && !closed.has(id)) this.opts.post({ type: 'confirm', request });
    }
    for (const c of this.closed) {
      if (shown.has(c.id)) this.opts.post({ type: 'confirmClosed', closed: c });
    }
    this.heldConfirms.clear();
    this.closed.length = 0;
  }

  /** A live chat/event. Events of sessions not followed are ignored. */
  event(event: ChatEvent): void {
    if (this.sessionId === undefined) this.sessionId = event.sessionId;
    if (event.sessionId !== this.sessionId) return;
    if (!this.open) {
      this.held.push(event);
      if (this.held.length > this.maxEvents) this.held.splice(0, this.held.length - this.maxEvents);
      return;
    }
    this.deliverEvent(event);
  }

  confirm(request: ConfirmRequest): void {
    if (this.open) this.opts.post({ type: 'confirm', request });
    else this.heldConfirms.set(request.id, request);
  }

  confirmClosed(closed: ConfirmClosed): void {
    if (this.open) this.opts.post({ type: 'confirmClosed', closed });
    else {
      this.heldConfirms.delete(closed.id);
      this.closed.push(closed);
    }
  }

  private deliverEvent(event: ChatEvent): void {
    if (event.seq <= this.lastSeq) return;
    this.lastSeq = event.seq;
    this.opts.post({ type: 'event', event });
  }
}
