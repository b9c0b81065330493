import { useEffect, useRef, useState } from 'react';
import { CANVAS_SIZE, CELL, createGame, step, turn } from './game';

export function App() {
  const [game, setGame] = useState(createGame);
  const canvas = useRef<HTMLCanvasElement>(null);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key.startsWith('Arrow')) {
        e.preventDefault();
        setGame((g) => turn(g, e.key));
      }
    };
    window.addEventListener('keydown', onKey);
    const timer = setInterval(() => setGame((g) => step(g)), 120);
    return () => {
      window.removeEventListener('keydown', onKey);
      clearInterval(timer);
    };
  }, []);

  useEffect(() => {
    const ctx = canvas.current?.getContext('2d');
    if (!ctx) return;
    ctx.fillStyle = '#111';
    ctx.fillRect(0, 0, CANVAS_SIZE, CANVAS_SIZE);
    ctx.fillStyle = '#e33';
    ctx.fillRect(game.food.x * CELL, game.food.y * CELL, CELL, CELL);
    ctx.fillStyle = '#3c3';
    for (const c of game.snake) ctx.fillRect(c.x * CELL, c.y * CELL, CELL - 1, CELL - 1);
  }, [game]);

  return (
    <main>
      <div data-testid="score">Score: {game.score}</div>
      <div data-testid="status">{game.status}</div>
      <canvas ref={canvas} width={CANVAS_SIZE} height={CANVAS_SIZE} data-testid="board" />
    </main>
  );
}
