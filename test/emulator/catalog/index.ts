import type { EmulatorApp } from '../types';
import { catalogFor } from './catalog-data';
import { catalogRoutes } from './catalog-routes';

/** The model catalog service (spec: model-catalog-service.md), modelled on OpenRouter's /api/v1. */
export function register(app: EmulatorApp): void {
  for (const route of catalogRoutes(app, catalogFor(app))) app.route(route);
}
