import type { EmulatorApp } from '../types';

export function register(app: EmulatorApp): void {
  void app;
}
