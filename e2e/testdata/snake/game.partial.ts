// snake rules, first cut: moving, turning and walls.
export const CANVAS_SIZE = 400;
export const CELL = 20;
const N = CANVAS_SIZE / CELL;

export type Dir = 'up' | 'down' | 'left' | 'right';
export interface Cell {
  x: number;
  y: number;
}
export interface Game {
  snake: Cell[];
  dir: Dir;
  food: Cell;
  score: number;
  status: 'ready' | 'playing' | 'dead';
}

const KEYS: Record<string, Dir> = { ArrowUp: 'up', ArrowDown: 'down', ArrowLeft: 'left', ArrowRight: 'right' };
const OPPOSITE: Record<Dir, Dir> = { up: 'down', down: 'up', left: 'right', right: 'left' };
const MOVE: Record<Dir, Cell> = { up: { x: 0, y: -1 }, down: { x: 0, y: 1 }, left: { x: -1, y: 0 }, right: { x: 1, y: 0 } };

export function createGame(): Game {
  return { snake: [{ x: 10, y: 10 }, { x: 9, y: 10 }, { x: 8, y: 10 }], dir: 'right', food: { x: 10, y: 7 }, score: 0, status: 'ready' };
}

export function turn(g: Game, key: string): Game {
  const d = KEYS[key];
  if (!d || g.status === 'dead') return g;
  return { ...g, dir: d === OPPOSITE[g.dir] ? g.dir : d, status: 'playing' };
}

export function step(g: Game): Game {
  if (g.status !== 'playing') return g;
  const h = { x: g.snake[0].x + MOVE[g.dir].x, y: g.snake[0].y + MOVE[g.dir].y };
  if (h.x < 0 || h.y < 0 || h.x >= N || h.y >= N) return { ...g, status: 'dead' };
  return { ...g, snake: [h, ...g.snake.slice(0, -1)] };
}
