import type { TransformOptions } from 'esbuild';

export declare const MENU_CLIENT_OPTIONS: TransformOptions;
