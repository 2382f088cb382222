import { z } from 'zod';

export const windowStateSchema = z.object({
  x: z.number().int().optional(),
  y: z.number().int().optional(),
  width: z.number().int().min(400),
  height: z.number().int().min(300),
  maximized: z.boolean().default(false),
});
export type WindowState = z.infer<typeof windowStateSchema>;

export interface Rectangle {
  x: number;
  y: number;
  width: number;
  height: number;
}

export const defaultWindowState: WindowState = { width: 1280, height: 820, maximized: false };

/**
 * Restores a saved window only where it is still visible: a laptop unplugged from its
 * external monitor must not open Verbatim off screen.
 */
export function restoreWindowState(saved: unknown, workAreas: Rectangle[]): WindowState {
  const parsed = windowStateSchema.safeParse(saved);
  if (!parsed.success) return defaultWindowState;
  const state = parsed.data;
  if (state.x === undefined || state.y === undefined) return { ...state, x: undefined, y: undefined };
  const { x, y } = state;
  const visible = workAreas.some(
    (area) =>
      x + 100 <= area.x + area.width &&
      x + state.width - 100 >= area.x &&
      y >= area.y &&
      y + 50 <= area.y + area.height,
  );
  if (!visible) return { width: state.width, height: state.height, maximized: state.maximized };
  return state;
}
