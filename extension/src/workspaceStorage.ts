// Where the sidecar keeps a workspace's sessions and snapshots. VS Code's
// storageUri is a per-window slot (workspaceStorage/<id>, <id>-1, ...):
// which slot a window gets depends on which windows were open first, so a
// reload or a second window on the same folder saw another, often empty,
// history. Sessions belong to the workspace instead: one folder under
// globalStorageUri named by a hash of the workspace's identity, shared by
// every window on it. The old slots are handed to the sidecar, which merges
// their sessions once (server/internal/engine/legacy.go). No vscode import:
// extension.ts adapts.
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';

/** The database file a storage folder holds sessions in. */
export const SESSIONS_DB = 'sessions.db';

/**
 * What makes a workspace the same in every window and across reloads: a
 * saved .code-workspace file by its URI (its folder list may change), an
 * untitled multi-root workspace or a folder window by its folders' URIs
 * (sorted: reordering folders is the same workspace). Undefined without
 * a folder (the sidecar needs one anyway).
 */
export function workspaceIdentity(folders: readonly string[], workspaceFile?: string): string | undefined {
  if (workspaceFile && !workspaceFile.startsWith('untitled:')) return `workspace ${workspaceFile}`;
  if (folders.length === 0) return undefined;
  return `folders ${[...folders].sort().join('\n')}`;
}

/** The workspace's storage folder: globalStorage/workspaces/<hash>. */
export function workspaceStorageDir(globalStorage: string, identity: string): string {
  const key = createHash('sha256').update(identity).digest('hex').slice(0, 32);
  return path.join(globalStorage, 'workspaces', key);
}

/** What a slot's workspace.json names: its folder or its workspace file (URIs). */
export interface SlotTarget {
  folder?: string;
  workspace?: string;
}

/**
 * Whether a slot belongs to this workspace: a folder window's slot names
 * its one folder, a saved workspace's slot its file. `same` compares two
 * URIs as the editor normalises them.
 */
export function slotBelongs(
  slot: SlotTarget,
  folders: readonly string[],
  workspaceFile: string | undefined,
  same: (a: string, b: string) => boolean,
): boolean {
  if (workspaceFile && !workspaceFile.startsWith('untitled:')) return !!slot.workspace && same(slot.workspace, workspaceFile);
  return !workspaceFile && folders.length === 1 && !!slot.folder && same(slot.folder, folders[0]);
}

/**
 * The per-window slots that hold sessions of this workspace: this window's
 * own slot (storagePath, <workspaceStorage>/<slot>/<extension id>) and any
 * sibling slot whose workspace.json names the same workspace. Only slots
 * with a sessions database are read, so the cost is one stat per slot.
 */
export function legacyStorageDirs(storagePath: string | undefined, belongs: (slot: SlotTarget) => boolean): string[] {
  if (!storagePath) return [];
  const out: string[] = [];
  if (fs.existsSync(path.join(storagePath, SESSIONS_DB))) out.push(storagePath);
  const ownSlot = path.dirname(storagePath);
  const slots = path.dirname(ownSlot);
  const extDir = path.basename(storagePath);
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(slots, { withFileTypes: true });
  } catch {
    return out;
  }
  for (const e of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    const slot = path.join(slots, e.name);
    if (!e.isDirectory() || slot === ownSlot) continue;
    const candidate = path.join(slot, extDir);
    if (!fs.existsSync(path.join(candidate, SESSIONS_DB))) continue;
    try {
      const target = JSON.parse(fs.readFileSync(path.join(slot, 'workspace.json'), 'utf8')) as SlotTarget;
      if (belongs(target)) out.push(candidate);
    } catch {
      // No readable workspace.json: nothing says whose slot it is.
    }
  }
  return out;
}

/**
 * Creates the workspace's storage folder and notes in it what the hash
 * stands for, so a person looking through global storage can tell.
 */
export function prepareWorkspaceStorage(dir: string, identity: string): void {
  fs.mkdirSync(dir, { recursive: true });
  const note = path.join(dir, 'workspace.json');
  if (!fs.existsSync(note)) fs.writeFileSync(note, `${JSON.stringify({ identity }, null, 2)}\n`);
}
