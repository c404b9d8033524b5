/** The print sizes and distances the api accepts: apart from the gate, so a schema or the console can name them without loading decoders. */

/** The print sizes a report (and a print render) accepts, in millimetres. */
export const PRINT_SIZE_MIN_MM = 10;
export const PRINT_SIZE_MAX_MM = 1000;
/** The farthest reading distance a report is asked about: 20 m (a billboard across a street). */
export const PRINT_DISTANCE_MAX_MM = 20_000;
/** When no size is asked: 3 cm, a table tent's code. */
export const DEFAULT_PRINT_SIZE_MM = 30;
