/** The print sizes and distances the api accepts: apart from the gate, so a schema or the console can name them without loading decoders. */
import { QR_MAX_SIZE } from '../options.js';

/** The print sizes a report (and a print render) accepts, in millimetres. */
export const PRINT_SIZE_MIN_MM = 10;
export const PRINT_SIZE_MAX_MM = 1000;
/** The farthest reading distance a report is asked about: 20 m (a billboard across a street). */
export const PRINT_DISTANCE_MAX_MM = 20_000;
/** When no size is asked: 3 cm, a table tent's code. */
export const DEFAULT_PRINT_SIZE_MM = 30;
/** Pixels per inch of a PNG asked for at a printed size: what print shops ask of raster artwork. */
export const PRINT_PNG_DPI = 300;
/** The widest PNG print size: QR_MAX_SIZE pixels at PRINT_PNG_DPI (about 346 mm). */
export const PRINT_PNG_MAX_MM = Math.floor(((QR_MAX_SIZE * 25.4) / PRINT_PNG_DPI) * 10) / 10;
