// Package mentions expands the @mentions of a chat message before the
// model is called: @path/to/file, @folder/, @problems, @git-changes, @url,
// @terminal, @mcp:<server>:<uri> and @#Symbol. Files and folders are read through
// the same tools the model uses (read_file and list_files), so the path
// sandbox, .gitignore, binary refusal and Read deny rules apply to
// mentions exactly as they apply to the agent.
//
// # In the turn
//
// Mentions are expanded with the turn's tool env (package turninput) in
// the first user message only, context files with them, then change notices
// (context_files session state). What the UI shows of both (names, kinds,
// sizes, errors; never contents) is kept by message id in message_extras
// session state and put back on user messages by session/load (the engine's
// extras.go).
//
// # @terminal
//
// @terminal is a server→client editor/terminalOutput request (declared by
// capabilities.terminalOutput): the host keeps the newest 64 KB per terminal
// from shell integration (onDidStartTerminalShellExecution, feature-detected;
// a request waits up to 1.5 s for a command still streaming), and reads the
// terminal's buffer through its select-all/copy commands (clipboard restored,
// 2 s at most; code-server needs the page's clipboard permission) when there
// is no stream or the newest command streamed nothing (VS Code batches output
// for 50 ms and drops the batch when a fast command ends first). Both sides
// scrub credential shapes (ScrubSecrets here, the extension's
// terminalText.ts).
//
// # @#Symbol
//
// @#Name / @#Type.Member (symbols.go) attaches a symbol's declaration: the
// sidecar searches the files .gitignore keeps (source extensions, Read rules
// honoured, 3 s budget) for a declaring line (func, type, class, def, fn,
// interface…; a Go receiver or an enclosing class of Type preferred) and
// attaches up to 3 declarations whole (to the closing brace or the end of the
// indented block, 80 lines at most) through read_file, so it works the same
// headless. In the editor, typing @# completes from VS Code's workspace symbol
// provider (vscode.executeWorkspaceSymbolProvider, the host's
// chatCompletions.ts), which only feeds the list.
package mentions
