// snake rules: moving, turning, food and score, walls and the snake itself.
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

// The first food is three cells above the head: the player must turn to reach it.
export function createGame(): Game {
  return { snake: [{ x: 10, y: 10 }, { x: 9, y: 10 }, { x: 8, y: 10 }], dir: 'right', food: { x: 10, y: 7 }, score: 0, status: 'ready' };
}

export function turn(g: Game, key: string): Game {
  const d = KEYS[key];
  if (!d || g.status === 'dead') return g;
  return { ...g, dir: d === OPPOSITE[g.dir] ? g.dir : d, status: 'playing' };
}

const same = (a: Cell, b: Cell) => a.x === b.x && a.y === b.y;

function nextFood(snake: Cell[], seed: number): Cell {
  for (let i = 0; i < N * N; i++) {
    const k = (seed * 7 + i * 13) % (N * N);
    const c = { x: k % N, y: Math.floor(k / N) };
    if (!snake.some((s) => same(s, c))) return c;
  }
  return { x: -1, y: -1 };
}

export function step(g: Game): Game {
  if (g.status !== 'playing') return g;
  const h = { x: g.snake[0].x + MOVE[g.dir].x, y: g.snake[0].y + MOVE[g.dir].y };
  if (h.x < 0 || h.y < 0 || h.x >= N || h.y >= N) return { ...g, status: 'dead' };
  const eats = same(h, g.food);
  const body = eats ? g.snake : g.snake.slice(0, -1);
  if (body.some((s) => same(s, h))) return { ...g, status: 'dead' };
  const snake = [h, ...body];
  if (!eats) return { ...g, snake };
  return { ...g, snake, score: g.score + 1, food: nextFood(snake, g.score + 1) };
}
