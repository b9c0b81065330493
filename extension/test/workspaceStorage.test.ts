import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  legacyStorageDirs,
  prepareWorkspaceStorage,
  slotBelongs,
  workspaceIdentity,
  workspaceStorageDir,
} from '../src/workspaceStorage';

const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), 'govibe-wsstorage-'));
const exact = (a: string, b: string) => a === b;

describe('workspace identity', () => {
  it('is the folder for a folder window, whichever window or reload asks', () => {
    const a = workspaceIdentity(['file:///home/me/proj']);
    expect(a).toBe(workspaceIdentity(['file:///home/me/proj']));
    expect(a).not.toBe(workspaceIdentity(['file:///home/me/other']));
  });

  it('is the .code-workspace file for a saved workspace, whatever folders it lists now', () => {
    const ws = 'file:///home/me/team.code-workspace';
    expect(workspaceIdentity(['file:///a', 'file:///b'], ws)).toBe(workspaceIdentity(['file:///a'], ws));
    expect(workspaceIdentity(['file:///a'], ws)).not.toBe(workspaceIdentity(['file:///a']));
  });

  it('is the folder set for an untitled workspace, in any order', () => {
    const untitled = 'untitled:Untitled%20(Workspace)';
    expect(workspaceIdentity(['file:///b', 'file:///a'], untitled)).toBe(workspaceIdentity(['file:///a', 'file:///b'], untitled));
  });

  it('does not exist without a folder', () => {
    expect(workspaceIdentity([])).toBeUndefined();
    expect(workspaceIdentity([], 'untitled:x')).toBeUndefined();
  });
});

describe('workspace storage folder', () => {
  it('lives under global storage, one per workspace, named by a hash', () => {
    const global = '/g/govibe.govibe';
    const one = workspaceStorageDir(global, workspaceIdentity(['file:///home/me/proj'])!);
    expect(path.dirname(one)).toBe(path.join(global, 'workspaces'));
    expect(path.basename(one)).toMatch(/^[0-9a-f]{32}$/);
    expect(workspaceStorageDir(global, workspaceIdentity(['file:///home/me/proj'])!)).toBe(one);
    expect(workspaceStorageDir(global, workspaceIdentity(['file:///home/me/other'])!)).not.toBe(one);
  });

  it('notes what the hash stands for, once', () => {
    const dir = path.join(tmp(), 'workspaces', 'abc');
    prepareWorkspaceStorage(dir, 'folders file:///p');
    expect(JSON.parse(fs.readFileSync(path.join(dir, 'workspace.json'), 'utf8'))).toEqual({ identity: 'folders file:///p' });
    fs.writeFileSync(path.join(dir, 'workspace.json'), 'kept');
    prepareWorkspaceStorage(dir, 'folders file:///p');
    expect(fs.readFileSync(path.join(dir, 'workspace.json'), 'utf8')).toBe('kept');
  });
});

describe('old per-window slots', () => {
  it('a slot belongs when its workspace.json names this folder or this workspace file', () => {
    expect(slotBelongs({ folder: 'file:///p' }, ['file:///p'], undefined, exact)).toBe(true);
    expect(slotBelongs({ folder: 'file:///q' }, ['file:///p'], undefined, exact)).toBe(false);
    expect(slotBelongs({ workspace: 'file:///w.code-workspace' }, ['file:///p'], 'file:///w.code-workspace', exact)).toBe(true);
    // A folder slot is not a workspace's, nor the other way round.
    expect(slotBelongs({ folder: 'file:///p' }, ['file:///p'], 'file:///w.code-workspace', exact)).toBe(false);
    expect(slotBelongs({ workspace: 'file:///w.code-workspace' }, ['file:///p'], undefined, exact)).toBe(false);
    expect(slotBelongs({ folder: 'file:///p' }, ['file:///p', 'file:///q'], 'untitled:x', exact)).toBe(false);
  });

  it('finds this window\'s slot and the sibling slots of the same folder that hold sessions', () => {
    const root = path.join(tmp(), 'workspaceStorage');
    const slot = (name: string, target: object | undefined, sessions: boolean) => {
      const dir = path.join(root, name, 'govibe.govibe');
      fs.mkdirSync(dir, { recursive: true });
      if (target) fs.writeFileSync(path.join(root, name, 'workspace.json'), JSON.stringify(target));
      if (sessions) fs.writeFileSync(path.join(dir, 'sessions.db'), '');
      return dir;
    };
    const own = slot('a1b2', { folder: 'file:///p' }, true);
    const sibling = slot('a1b2-1', { folder: 'file:///p' }, true);
    slot('ffff', { folder: 'file:///other' }, true); // another folder's
    slot('a1b2-2', { folder: 'file:///p' }, false); // the same folder, no sessions
    slot('eeee', undefined, true); // nothing says whose
    fs.mkdirSync(path.join(root, 'junk'));
    fs.writeFileSync(path.join(root, 'junk', 'workspace.json'), '{not json');
    fs.mkdirSync(path.join(root, 'junk', 'govibe.govibe'));
    fs.writeFileSync(path.join(root, 'junk', 'govibe.govibe', 'sessions.db'), '');

    const belongs = (s: { folder?: string; workspace?: string }) => slotBelongs(s, ['file:///p'], undefined, exact);
    expect(legacyStorageDirs(own, belongs)).toEqual([own, sibling]);
    // A window whose own slot never held sessions still finds its siblings.
    const fresh = slot('a1b2-3', { folder: 'file:///p' }, false);
    expect(legacyStorageDirs(fresh, belongs)).toEqual([own, sibling]);
    expect(legacyStorageDirs(undefined, belongs)).toEqual([]);
  });
});
