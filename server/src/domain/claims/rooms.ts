import QRCode from 'qrcode'
import { ROOM_CODE_PARAMS } from '@contract/scan/hospital-reports'
import type { DB } from '../../db'
import { findHospitalRoom } from '../hospitals'

/** The page of the app a room code opens (院内报告); the app's routes.ts names it `reportIn`. */
const ROOM_CODE_PAGE = '/pages/report/reportIn'

/**
 * The link printed as a room's (or a self-service terminal's) QR code: 院内报告 with the hospital
 * and the room. Not signed, unlike a film-bag code: it names only what the room list already
 * shows, and the page shows nothing without the patient's own login.
 */
export function roomCodeUrl(origin: string, hospitalId: string, roomId: string): string {
  const query = new URLSearchParams({
    [ROOM_CODE_PARAMS.hospital]: hospitalId,
    [ROOM_CODE_PARAMS.room]: roomId,
  })
  return `${origin.replace(/\/+$/, '')}${ROOM_CODE_PAGE}?${query.toString()}`
}

/** A hospital's code for one of its rooms; another hospital's room is 404 as an unknown one. */
export async function issueRoomCode(
  db: DB,
  input: { hospitalId: string; roomId: string; origin: string },
) {
  const { hospital, room } = await findHospitalRoom(db, input.hospitalId, input.roomId)
  const url = roomCodeUrl(input.origin, hospital.id, room!.id)
  // Printed on a wall or a terminal's screen: large enough to scan from a step away.
  const qrImage = await QRCode.toDataURL(url, { margin: 2, width: 480 })
  return { hospital, room: room!, url, qrImage }
}
