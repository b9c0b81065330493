import { describe, expect, test } from 'vitest';
import { CANVAS_SIZE, CELL, createGame, step, turn } from './game';

describe('snake', () => {
  test('the board is a 400x400 canvas of 20px cells', () => {
    expect(CANVAS_SIZE).toBe(400);
    expect(CANVAS_SIZE / CELL).toBe(20);
  });

  test('a new game has a snake of length 3, score 0, waiting for a key', () => {
    const g = createGame();
    expect(g.snake).toHaveLength(3);
    expect(g.score).toBe(0);
    expect(g.status).toBe('ready');
  });

  test('an arrow key starts the game and turns the snake; reversing is ignored', () => {
    let g = turn(createGame(), 'ArrowUp');
    expect(g.status).toBe('playing');
    expect(g.dir).toBe('up');
    g = turn(g, 'ArrowDown');
    expect(g.dir).toBe('up');
  });

  test('a step moves the head one cell and keeps the length', () => {
    const g = createGame();
    const h = g.snake[0];
    const n = step(turn(g, 'ArrowRight'));
    expect(n.snake[0]).toEqual({ x: h.x + 1, y: h.y });
    expect(n.snake).toHaveLength(3);
  });

  test('eating food grows the snake and scores', () => {
    const g = turn(createGame(), 'ArrowRight');
    const h = g.snake[0];
    const n = step({ ...g, food: { x: h.x + 1, y: h.y } });
    expect(n.snake).toHaveLength(4);
    expect(n.score).toBe(1);
  });

  test('hitting a wall ends the game', () => {
    let g = turn(createGame(), 'ArrowRight');
    for (let i = 0; i < 20; i++) g = step(g);
    expect(g.status).toBe('dead');
  });

  test('hitting itself ends the game', () => {
    const g = {
      ...createGame(),
      status: 'playing' as const,
      dir: 'up' as const,
      snake: [
        { x: 5, y: 5 },
        { x: 6, y: 5 },
        { x: 6, y: 4 },
        { x: 5, y: 4 },
        { x: 4, y: 4 },
      ],
    };
    expect(step(g).status).toBe('dead');
  });
});
