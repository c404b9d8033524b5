/**
 * The console's icons: Tabler's outline set (MIT, assets/icons/LICENSE; the same set the hosted
 * pages use). Only the icons used are kept, copied as SVG into assets/icons/ (the package is
 * 51 MB for the few dozen named here); adding one is copying its file from tabler.io and one line.
 */
import alertTriangle from '../../../assets/icons/alert-triangle.svg?raw';
import archive from '../../../assets/icons/archive.svg?raw';
import arrowBackUp from '../../../assets/icons/arrow-back-up.svg?raw';
import arrowDown from '../../../assets/icons/arrow-down.svg?raw';
import arrowUp from '../../../assets/icons/arrow-up.svg?raw';
import buildingStore from '../../../assets/icons/building-store.svg?raw';
import chartBar from '../../../assets/icons/chart-bar.svg?raw';
import check from '../../../assets/icons/check.svg?raw';
import chevronDown from '../../../assets/icons/chevron-down.svg?raw';
import chevronRight from '../../../assets/icons/chevron-right.svg?raw';
import clock from '../../../assets/icons/clock.svg?raw';
import circleCheck from '../../../assets/icons/circle-check.svg?raw';
import coffee from '../../../assets/icons/coffee.svg?raw';
import copy from '../../../assets/icons/copy.svg?raw';
import dots from '../../../assets/icons/dots.svg?raw';
import download from '../../../assets/icons/download.svg?raw';
import edit from '../../../assets/icons/edit.svg?raw';
import externalLink from '../../../assets/icons/external-link.svg?raw';
import eyeOff from '../../../assets/icons/eye-off.svg?raw';
import eye from '../../../assets/icons/eye.svg?raw';
import folder from '../../../assets/icons/folder.svg?raw';
import devices from '../../../assets/icons/devices.svg?raw';
import gripVertical from '../../../assets/icons/grip-vertical.svg?raw';
import history from '../../../assets/icons/history.svg?raw';
import home from '../../../assets/icons/home.svg?raw';
import infoCircle from '../../../assets/icons/info-circle.svg?raw';
import key from '../../../assets/icons/key.svg?raw';
import link from '../../../assets/icons/link.svg?raw';
import listCheck from '../../../assets/icons/list-check.svg?raw';
import logout from '../../../assets/icons/logout.svg?raw';
import menu from '../../../assets/icons/menu-2.svg?raw';
import moon from '../../../assets/icons/moon.svg?raw';
import palette from '../../../assets/icons/palette.svg?raw';
import pause from '../../../assets/icons/player-pause.svg?raw';
import play from '../../../assets/icons/player-play.svg?raw';
import plus from '../../../assets/icons/plus.svg?raw';
import qrcode from '../../../assets/icons/qrcode.svg?raw';
import refresh from '../../../assets/icons/refresh.svg?raw';
import search from '../../../assets/icons/search.svg?raw';
import selector from '../../../assets/icons/selector.svg?raw';
import send from '../../../assets/icons/send.svg?raw';
import shieldLock from '../../../assets/icons/shield-lock.svg?raw';
import stack from '../../../assets/icons/stack.svg?raw';
import star from '../../../assets/icons/star.svg?raw';
import sun from '../../../assets/icons/sun.svg?raw';
import toolsKitchen from '../../../assets/icons/tools-kitchen-2.svg?raw';
import trash from '../../../assets/icons/trash.svg?raw';
import trendingDown from '../../../assets/icons/trending-down.svg?raw';
import trendingUp from '../../../assets/icons/trending-up.svg?raw';
import upload from '../../../assets/icons/upload.svg?raw';
import user from '../../../assets/icons/user.svg?raw';
import userPlus from '../../../assets/icons/user-plus.svg?raw';
import users from '../../../assets/icons/users.svg?raw';
import webhook from '../../../assets/icons/webhook.svg?raw';
import world from '../../../assets/icons/world.svg?raw';
import x from '../../../assets/icons/x.svg?raw';

const SOURCES = {
  'alert-triangle': alertTriangle,
  archive,
  'arrow-back-up': arrowBackUp,
  'arrow-down': arrowDown,
  'arrow-up': arrowUp,
  'building-store': buildingStore,
  'chart-bar': chartBar,
  check,
  'chevron-down': chevronDown,
  'chevron-right': chevronRight,
  clock,
  'circle-check': circleCheck,
  coffee,
  copy,
  dots,
  download,
  edit,
  'external-link': externalLink,
  eye,
  'eye-off': eyeOff,
  folder,
  devices,
  'grip-vertical': gripVertical,
  history,
  home,
  'info-circle': infoCircle,
  key,
  link,
  'list-check': listCheck,
  logout,
  menu,
  moon,
  palette,
  pause,
  play,
  plus,
  qrcode,
  refresh,
  search,
  selector,
  send,
  'shield-lock': shieldLock,
  stack,
  star,
  sun,
  'tools-kitchen-2': toolsKitchen,
  trash,
  'trending-down': trendingDown,
  'trending-up': trendingUp,
  upload,
  user,
  'user-plus': userPlus,
  users,
  webhook,
  world,
  x,
} as const;

export type IconName = keyof typeof SOURCES;

/** Every icon the console bundles (the design system page shows them). */
export const ICON_NAMES = Object.keys(SOURCES) as IconName[];

const bodies = new Map<IconName, string>();

/**
 * The drawing inside an icon's <svg>, without the file's own attributes (the console sets size,
 * stroke and colour itself) and without Tabler's invisible bounding-box path.
 */
export function iconBody(name: IconName): string {
  let body = bodies.get(name);
  if (body === undefined) {
    const inner = SOURCES[name].replace(/^[\s\S]*?<svg[^>]*>/, '').replace(/<\/svg>\s*$/, '');
    body = inner
      .replace(/<path stroke="none" d="M0 0h24v24H0z" fill="none"\s*\/>/, '')
      .replace(/>\s+</g, '><')
      .replace(/\s+/g, ' ')
      .trim();
    bodies.set(name, body);
  }
  return body;
}
