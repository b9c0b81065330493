-- A store as GoVibe wrote it at schema version 3, before messages had an
-- origin (migration 0004): a plan run whose scheduler prompts, a resumed
-- executor and the closing prompt are user-role messages, next to what the
-- person typed, plus a sub-agent's child session. The texts are the
-- engine's exact forms (scheduler/prompts.go).
INSERT INTO sessions (id, parent_id, title, kind, hidden, created_at, updated_at, message_count, last_seq) VALUES
  ('s1', NULL, 'Add a multiply function', 'chat', 0, 1700000000000, 1700000000000, 12, 12),
  ('c1', 's1', 'investigate', 'subagent', 1, 1700000000000, 1700000000000, 3, 3),
  ('r1', 's1', 'review', 'reviewer', 1, 1700000000000, 1700000000000, 1, 1);
INSERT INTO messages (id, session_id, seq, role, sub_agent_tag, status, created_at, updated_at) VALUES
  ('u1',  's1', 1,  'user',      '',            'done', 1700000000000, 1700000000000),
  ('a1',  's1', 2,  'assistant', '',            'done', 1700000000000, 1700000000000),
  ('x1',  's1', 3,  'user',      'executor:1',  'done', 1700000000000, 1700000000000),
  ('xa1', 's1', 4,  'assistant', 'executor:1',  'done', 1700000000000, 1700000000000),
  ('u2',  's1', 5,  'user',      '',            'done', 1700000000000, 1700000000000),
  ('x2',  's1', 6,  'user',      'executor:1',  'done', 1700000000000, 1700000000000),
  ('e1',  's1', 7,  'user',      'evaluator:1', 'done', 1700000000000, 1700000000000),
  ('ea1', 's1', 8,  'assistant', 'evaluator:1', 'done', 1700000000000, 1700000000000),
  ('f1',  's1', 9,  'user',      'free',        'done', 1700000000000, 1700000000000),
  ('fa1', 's1', 10, 'assistant', 'free',        'done', 1700000000000, 1700000000000),
  ('u3',  's1', 11, 'user',      '',            'done', 1700000000000, 1700000000000),
  ('u4',  's1', 12, 'user',      '',            'done', 1700000000000, 1700000000000),
  ('ct1', 'c1', 1,  'user',      'investigate', 'done', 1700000000000, 1700000000000),
  ('ca1', 'c1', 2,  'assistant', 'investigate', 'done', 1700000000000, 1700000000000),
  ('ct2', 'c1', 3,  'user',      'investigate', 'done', 1700000000000, 1700000000000),
  ('rt1', 'r1', 1,  'user',      '',            'done', 1700000000000, 1700000000000);
INSERT INTO message_parts (message_id, idx, kind, text) VALUES
  ('u1',  0, 'text', 'Add a multiply function to calc.go, with a test.'),
  ('a1',  0, 'text', 'I made a plan with one item.'),
  ('x1',  0, 'text', '[executor:1] You are the executor for todo item 1/1 "Add Multiply".
Goal of the plan: Add a multiply function
Item: Add Multiply
Do this item only, using the tools. You cannot complete items or change the plan: an evaluator checks your work after you finish. When the item is done, reply without calling any tool and say what you did.'),
  ('xa1', 0, 'text', 'Added Multiply.'),
  ('u2',  0, 'text', 'continue'),
  ('x2',  0, 'text', '[executor:1] The run was interrupted. Continue as the executor for todo item 1/1 "Add Multiply" where you left off.'),
  ('e1',  0, 'text', '[evaluator:1] You are the evaluator for todo item 1/1 "Add Multiply".
Goal of the plan: Add a multiply function
Attempt 1 of 3. The executor''s report is above.'),
  ('ea1', 0, 'text', 'Verified.'),
  ('f1',  0, 'text', '[scheduler] Every todo item has been handled. Results:
1. Add Multiply — done: tests pass
Summarise for the user what was done, what failed and why. Do not start a new plan.'),
  ('fa1', 0, 'text', 'Done: Multiply added.'),
  ('u3',  0, 'text', '[scheduler] Every todo item has been handled. Results: I typed this'),
  ('u4',  0, 'text', '[executor:1] You are the executor, I wrote this myself'),
  ('ct1', 0, 'text', 'Find where calc.go is tested.'),
  ('ca1', 0, 'text', 'In calc_test.go.'),
  ('ct2', 0, 'text', 'Also check the README.'),
  ('rt1', 0, 'text', 'Review this diff.');
