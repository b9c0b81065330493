// Serialises async critical sections (start/stop/restart) so two of them
// never interleave their awaits. Callers run in FIFO order; a failing
// section does not poison the ones queued after it.
export class Mutex {
  private tail: Promise<unknown> = Promise.resolve();

  run<T>(section: () => Promise<T>): Promise<T> {
    const result = this.tail.then(section, section);
    this.tail = result.then(
      () => undefined,
      () => undefined,
    );
    return result;
  }
}
