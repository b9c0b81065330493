// editor/applyEdit on a document no editor shows: VS Code's own
// refactoring auto-save may be saving it while we do. Our save() then
// returns false with the document still dirty; the edit is written once
// that save lands and must be reported as applied, not as failed.
import { afterEach, describe, expect, it, vi } from 'vitest';
import * as fake from './fakeVscode';

vi.mock('vscode', () => import('./fakeVscode'));

const token = { isCancellationRequested: false, onCancellationRequested: () => ({ dispose() {} }) } as any;

function setup(opts: { autoSaveLands: boolean; secondSave: boolean }) {
  const disk = new Map<string, string>([['/ws/README.md', 'old\n']]);
  const saveListeners: Array<(d: unknown) => void> = [];
  const doc: any = {
    uri: fake.Uri.file('/ws/README.md'),
    isDirty: false,
    text: 'old\n',
    getText() {
      return this.text;
    },
    positionAt: (n: number) => n,
    saves: 0,
    async save() {
      this.saves++;
      if (this.saves === 1) {
        // VS Code's auto-save is already writing it: ours is refused.
        if (opts.autoSaveLands)
          setTimeout(() => {
            disk.set('/ws/README.md', doc.text);
            doc.isDirty = false;
            for (const l of saveListeners) l(doc);
          }, 30);
        return false;
      }
      if (!opts.secondSave) return false;
      disk.set('/ws/README.md', this.text);
      this.isDirty = false;
      return true;
    },
  };
  Object.assign(fake.workspace, {
    textDocuments: [doc],
    applyEdit: async (e: any) => {
      doc.text = e.ops.find((o: unknown[]) => o[0] === 'replace')[3];
      doc.isDirty = true;
      return true;
    },
    onDidSaveTextDocument: (l: (d: unknown) => void) => {
      saveListeners.push(l);
      return { dispose: () => saveListeners.splice(saveListeners.indexOf(l), 1) };
    },
    fs: {
      stat: async () => ({}),
      readFile: async (u: fake.Uri) => new TextEncoder().encode(disk.get(u.fsPath) ?? ''),
    },
  });
  return { disk, doc };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('editor/applyEdit', () => {
  it('reports an edit applied when VS Code auto-saves it first', async () => {
    const { EditorRequests } = await import('../src/host/editorRequests');
    const { disk } = setup({ autoSaveLands: true, secondSave: false });
    const logs: string[] = [];
    const r = await new EditorRequests((l) => logs.push(l)).applyEdit({ path: '/ws/README.md', content: 'new\n', expected: 'old\n' } as any, token);
    expect(r).toEqual({ applied: true });
    expect(disk.get('/ws/README.md')).toBe('new\n');
    expect(logs).toEqual([]);
  });

  it('saves again when the save in flight never lands', async () => {
    vi.useFakeTimers();
    const { EditorRequests } = await import('../src/host/editorRequests');
    const { disk, doc } = setup({ autoSaveLands: false, secondSave: true });
    const p = new EditorRequests(() => undefined).applyEdit({ path: '/ws/README.md', content: 'new\n', expected: 'old\n' } as any, token);
    await vi.advanceTimersByTimeAsync(20_000);
    expect(await p).toEqual({ applied: true });
    expect(doc.saves).toBe(2);
    expect(disk.get('/ws/README.md')).toBe('new\n');
  });

  it('says the save failed when nothing reaches the disk', async () => {
    vi.useFakeTimers();
    const { EditorRequests } = await import('../src/host/editorRequests');
    const { disk } = setup({ autoSaveLands: false, secondSave: false });
    const p = new EditorRequests(() => undefined).applyEdit({ path: '/ws/README.md', content: 'new\n', expected: 'old\n' } as any, token);
    await vi.advanceTimersByTimeAsync(20_000);
    const r = await p;
    expect(r.applied).toBe(false);
    expect(r.reason).toMatch(/saving the file failed/);
    expect(disk.get('/ws/README.md')).toBe('old\n');
  });
});
