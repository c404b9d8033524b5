/**
 * The two-factor secret as a QR code for an authenticator app to scan: the project's own encoder
 * (the one the server's renderer uses), drawn as one SVG path, dark on white whatever the theme,
 * with the quiet zone scanners need.
 */
import { encodeQr } from '#domain/qr/render/encoder.js';

const QUIET = 4;

export function OtpQr({ uri, label }: { uri: string; label: string }) {
  const { count, dark } = encodeQr(uri, 0, 'M', 'Byte');
  let d = '';
  for (let y = 0; y < count; y++) {
    for (let x = 0; x < count; x++) if (dark[y * count + x]) d += `M${x + QUIET} ${y + QUIET}h1v1h-1z`;
  }
  const size = count + QUIET * 2;
  return (
    <svg class="otp-qr" viewBox={`0 0 ${size} ${size}`} role="img" aria-label={label} shape-rendering="crispEdges">
      <rect width={size} height={size} fill="#fff" />
      <path d={d} fill="#000" />
    </svg>
  );
}
