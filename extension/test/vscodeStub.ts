// Logic modules must not import vscode; this alias target makes an
// accidental import fail loudly in tests instead of resolving to nothing.
throw new Error('a module under test imported "vscode"; move the logic into a vscode-free module');
