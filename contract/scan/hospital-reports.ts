import { z } from 'zod/mini'
import { IdSchema } from '../common'
import { defineEndpoint } from '../endpoint'
import { HospitalRefSchema } from '../hospitals'
import { ExamSummarySchema } from '../main/records'

/*
 * 院内报告 (scan service: room list, report count, report info). A hospital prints a room code at an
 * exam room or a self-service terminal; a patient scans it and sees, for that hospital, each of
 * their exams and where its report stands, from what the hospital pushed.
 *
 * The room code is a link to the page (`<origin>/pages/report/reportIn?hospitalId=…&roomId=…`), as
 * the film-bag code is: a phone's camera opens it as well as the app's scanner. It is not signed:
 * it names a hospital and a room (public, as the room list is) and shows nothing without the
 * patient's own login.
 */

/** The query parameters of the room-code link. */
export const ROOM_CODE_PARAMS = { hospital: 'hospitalId', room: 'roomId' } as const

const RoomIdSchema = z
  .string({ error: '二维码无效' })
  .check(
    z.minLength(1, '二维码无效'),
    z.maxLength(64, '二维码无效'),
    z.regex(/^[\w.-]+$/, '二维码无效'),
  )

/** A report's state as 院内报告 shows it (derived from the FHIR report's status and the study). */
export const HOSPITAL_REPORT_STATES = ['examined', 'reporting', 'reported', 'filmReady'] as const
export const HospitalReportStateSchema = z.enum(HOSPITAL_REPORT_STATES)
export type HospitalReportState = z.infer<typeof HospitalReportStateSchema>
export const HOSPITAL_REPORT_STATE_LABELS: Record<HospitalReportState, string> = {
  examined: '已检查',
  reporting: '报告中',
  reported: '已出报告',
  filmReady: '可取片',
}

/**
 * A released report (final, amended, corrected, appended) this many hours old: the films are
 * printed and waiting at the collection desk (可取片). Hospitals send no separate signal for it.
 */
export const FILM_READY_AFTER_HOURS = 2

/** A printable room code: the link, and the same as a QR image. */
export const RoomCodeSchema = z.object({
  hospital: HospitalRefSchema,
  room: z.object({ id: z.string(), name: z.string() }),
  /** What to print as the QR code: the 院内报告 page with the hospital and the room. */
  url: z.string(),
  /** The same as a QR code, ready to print: `data:image/png;base64,…`. */
  qrImage: z.string(),
})
export type RoomCode = z.infer<typeof RoomCodeSchema>

/** A hospital asks for the printable code of one of its rooms (or terminals). */
export const issueRoomCode = defineEndpoint({
  service: 'scan',
  method: 'POST',
  path: '/room-codes',
  input: z.object({ roomId: RoomIdSchema }),
  output: RoomCodeSchema,
  // A hospital API key (Authorization: Bearer yxh_…), not a user's token.
  auth: false,
  summary: '医院：获取诊室或自助终端的院内报告二维码（需医院 API 密钥）',
})

/** An operator prints the code of any hospital's room (the hospital without a system of its own). */
export const operatorIssueRoomCode = defineEndpoint({
  service: 'main',
  method: 'POST',
  path: '/operator/hospitals/:hospitalId/room-codes',
  input: z.object({ hospitalId: IdSchema, roomId: RoomIdSchema }),
  output: RoomCodeSchema,
  auth: true,
  role: 'operator',
  summary: '运营：获取医院诊室或自助终端的院内报告二维码',
})

export const HospitalReportItemSchema = z.object({
  state: HospitalReportStateSchema,
  /** HOSPITAL_REPORT_STATE_LABELS[state] */
  stateLabel: z.string(),
  exam: ExamSummarySchema,
})
export type HospitalReportItem = z.infer<typeof HospitalReportItemSchema>

export const HospitalReportsSchema = z.object({
  hospital: HospitalRefSchema,
  /** Null when the code names the hospital only (a terminal not tied to a room). */
  room: z.nullable(z.object({ id: z.string(), name: z.string() })),
  /** The report count: all the person's exams there, and how many are in each state. */
  counts: z.object({
    total: z.number(),
    examined: z.number(),
    reporting: z.number(),
    reported: z.number(),
    filmReady: z.number(),
  }),
  /** Newest first. */
  items: z.array(HospitalReportItemSchema),
})
export type HospitalReports = z.infer<typeof HospitalReportsSchema>

export const listHospitalReports = defineEndpoint({
  service: 'scan',
  method: 'GET',
  path: '/hospital-reports',
  input: z.object({
    hospitalId: RoomIdSchema,
    roomId: z.optional(RoomIdSchema),
    /** 当前就诊人: a family member's personId (contract/main/family.ts); absent: the caller. */
    personId: z.optional(IdSchema),
  }),
  output: HospitalReportsSchema,
  auth: true,
  summary: '院内报告：扫描诊室二维码后，本人在该医院的检查及报告进度',
})
