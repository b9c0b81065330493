// Package reviewers runs the independent reviewers (package review) for
// a session: the plan reviewer of create_todo_list, the edit reviewer
// and the shell command editor and security reviewer. It reads their
// settings, keeps each conversation in a hidden child session, publishes
// the verdict cards and carries the plan reviewer's rejections between
// calls. It reaches the engine only through Host; what a rejection or an
// unavailable reviewer means for the user (asking, refusing) is the
// approval flow's decision (package approval), not this package's.
//
// # Contract
//
// Host gives typed settings, a model client for a profile name, publishing a
// card or notice on a turn, Tr, and "does a permission rule deny this
// command"; Store gives session state, hidden sessions and the model and UI
// tracks. Reviewers (plan, edit, shell editor, shell security) are separate
// model calls in hidden child sessions. A review that fails or times out goes
// to the user with "review unavailable", never silently approved; headless it
// is refused. The reviewer's profile is govibe.roles.reviewer unless a
// per-review *.model setting names one.
package reviewers
