import type { Generated, Kysely } from 'kysely'
import type { AgreementKind } from '@contract/main/app'

/*
 * The typed shape of the database. Timestamps are ISO-8601 strings made by the app (never SQL defaults),
 * so SQLite and PostgreSQL store and return the same values; money, when it comes, is integer fen.
 */

/** One published version of a policy text. A published version is never edited: a change is a new row. */
export interface PolicyDocumentsTable {
  kind: AgreementKind
  /** `default` applies to every softwareName that has no text of its own. */
  software_name: string
  version: string
  title: string
  content: string
  updated_at: string
}

/** Seed steps that have run, so seeding is idempotent and safe with several server processes. */
export interface SeedRunsTable {
  name: string
  ran_at: string
}

/** A person's account (migration 0002-identity). Deleted accounts keep the row with deleted_at set. */
export interface UsersTable {
  /** A UUID. */
  id: string
  /** Full mainland number; unique, null for a WeChat-only account or after deletion. */
  mobile: string | null
  nickname: string
  avatar_url: string | null
  /** 'male' | 'female' | 'unknown' (contract GENDERS) */
  gender: string
  /** 'patient' | 'expert' (contract ROLES), or 'operator' (issue 10: never chosen at sign-up) */
  role: string
  /** argon2id PHC string; null when the account has never set a password. */
  password_hash: string | null
  wechat_openid: string | null
  created_at: string
  updated_at: string
  deleted_at: string | null
}

/** A login: opaque tokens stored only as SHA-256 hashes. */
export interface SessionsTable {
  id: string
  user_id: string
  access_hash: string
  refresh_hash: string
  access_expires_at: string
  refresh_expires_at: string
  created_at: string
  revoked_at: string | null
  /** The login this session descends from by refreshes (0005); the first session's own id. */
  family_id: string
  /** When the family's login happened: the absolute session lifetime counts from here. */
  family_started_at: string
  /** Set when a refresh replaced this session; presenting its refresh token again is theft. */
  rotated_at: string | null
}

/** An SMS verification code sent; only the hash of the code is kept. */
export interface SmsCodesTable {
  id: string
  mobile: string
  /** contract SMS_PURPOSES */
  purpose: string
  code_hash: string
  attempts: number
  expires_at: string
  consumed_at: string | null
  created_at: string
  /** SHA-256 of the requesting IP, for the per-IP limit without storing the address. */
  ip_hash: string
  /** The account a code was asked for on the phone holder's behalf (the family code); else null. */
  scope: string | null
}

/** 亲情卡: an invitation to be a child's second guardian (migration 0019). */
export interface GuardianInvitationsTable {
  id: string
  child_user_id: string
  inviter_user_id: string
  invitee_mobile: string
  created_at: string
  expires_at: string
  accepted_at: string | null
  declined_at: string | null
}

/** The embedded (demo) SMS provider's sent messages, read by the demo-only endpoint. */
export interface SmsOutboxTable {
  id: string
  mobile: string
  purpose: string
  code: string
  created_at: string
}

/** Password-login failures per phone number (also for numbers without an account). */
export interface LoginFailuresTable {
  mobile: string
  failures: number
  locked_until: string | null
  updated_at: string
}

/** One counted event of a DB-backed rate limit (shared by every server process). */
export interface RateEventsTable {
  id: string
  bucket: string
  created_at: string
}

/**
 * One limit's counter (0004-limits, src/domain/limits.ts): reservations taken in the current fixed
 * window. The key never contains a raw phone number or address (keyed HMACs only).
 */
export interface LimitCountersTable {
  key: string
  count: number
  window_ends_at: string
}

/** The policy versions a person agreed to ('user', 'privacy'). */
export interface ConsentsTable {
  id: string
  /** The account that consented (or withdrew). */
  user_id: string
  /** The purpose (contract/main/consents.ts). */
  kind: string
  version: string
  created_at: string
  /** 'given' | 'withdrawn'; the newest row of (user, kind, target) is the state (0031). */
  action: Generated<string>
  /** For whom: the person, or the family member a manager consented for. */
  subject_user_id: string | null
  /** What it is about: the consultation, the grant, the AI analysis. */
  target_id: string | null
  /** Where: the page and the button. */
  channel: string | null
  /** What the person saw named then (the expert, the records). */
  detail: string | null
  /** The row's place among its consent's rows (purpose, target, subject): the newest is the state. */
  seq: Generated<number>
}

/** Single-use tickets from validateCode: proof that the phone received a code. */
export interface CodeTicketsTable {
  id: string
  ticket_hash: string
  mobile: string
  purpose: string
  expires_at: string
  used_at: string | null
  created_at: string
}

/** A bound ID card (0003-profile): number and holder AES-256-GCM encrypted, one per account. */
export interface IdCardsTable {
  id: string
  user_id: string
  holder_encrypted: string
  number_encrypted: string
  /** Keyed HMAC of the number, unique: a number binds to one account only. */
  number_hash: string
  created_at: string
  /** When a real-name provider confirmed name and number (0005); null means bound, not verified. */
  verified_at: string | null
  /** Which provider verified it. */
  verified_by: string | null
}

/** A security event of an account (0005): who, when, and from which masked address and client. */
export interface AuditEventsTable {
  id: string
  /** Null when the event concerns no known account. */
  user_id: string | null
  /** contract AUDIT_KINDS */
  kind: string
  created_at: string
  ip_masked: string
  /** "Chrome 120 · Windows" */
  client: string
  /** 局域网, 本机, 未知位置 ... */
  location: string
  detail: string | null
}

/** An appeal against an ID number bound to another account (0005), for an operator to decide. */
export interface IdCardAppealsTable {
  id: string
  user_id: string
  number_hash: string
  number_encrypted: string
  holder_encrypted: string
  reason: string
  contact: string
  /** 'pending' | 'resolved' | 'rejected' (contract APPEAL_STATUSES) */
  status: string
  operator_note: string | null
  created_at: string
  updated_at: string
}

/** Which notifications a person wants; booleans as 0/1. No row means all on. */
export interface NoticeSettingsTable {
  user_id: string
  consult_reply: number
  report_ready: number
  system_notice: number
  updated_at: string
}

/** Analytics events: an event name and a page path, nothing personal. */
export interface TracksTable {
  id: string
  /** Null for anonymous events and after the account was deleted. */
  user_id: string | null
  event: string
  page: string | null
  created_at: string
}

/** A desktop's QR login request; the poll secret is stored only as a SHA-256 hash. */
export interface QrLoginsTable {
  id: string
  poll_secret_hash: string
  /** contract QR_STATUSES, except 'expired', which is derived from expires_at */
  status: string
  /** The person who scanned it (and may answer). */
  user_id: string | null
  /** "Chrome 120 · Windows" */
  browser: string
  ip_masked: string
  created_at: string
  expires_at: string
  scanned_at: string | null
  answered_at: string | null
  /** Set when the confirmed session was handed to the desktop: it is handed out once. */
  session_delivered_at: string | null
  /** Where the desktop asked from, in words (局域网, 本机, 未知位置); null on rows before 0005. */
  location: string | null
  /** SHA-256 of the confirm ticket handed to the scanning phone (0005). */
  ticket_hash: string | null
}

/** An uploaded file's metadata; the bytes live under UPLOAD_DIR at storage_key. */
export interface FilesTable {
  id: string
  user_id: string | null
  /** 'avatar' */
  kind: string
  storage_key: string
  mime_type: string
  size_bytes: number
  created_at: string
}

/** One account merged into another (sso mergeUser); the merged account keeps its row, deleted. */
export interface UserMergesTable {
  id: string
  from_user_id: string
  into_user_id: string
  created_at: string
}

/** Directory reference data (demo hospitals in demo mode). */
export interface HospitalsTable {
  id: string
  name: string
  level: string
  province: string
  city: string
  address: string
  sort_order: number
  created_at: string
  /** GB/T 2260 six-digit region code and its name (0007-hospitals); null when not recorded. */
  region_code: string | null
  region_name: string | null
  /** 0/1: the hospital offers AI reporting (marked in the hospital picker). */
  ai_reporting: number
  /** 0/1: demo data (示例…, 演示数据), never a real hospital. */
  demo: number
  /** GCJ-02 coordinates for 导航 (0017); null when not entered. */
  latitude?: number | null
  longitude?: number | null
}

/** A hospital system's API key (0007-hospitals): only its prefix is kept in clear. */
export interface HospitalApiKeysTable {
  id: string
  hospital_id: string
  key_prefix: string
  key_hash: string
  created_at: string
  revoked_at: string | null
  last_used_at: string | null
}

export interface DepartmentsTable {
  id: string
  hospital_id: string
  name: string
  sort_order: number
}

/** An exam (0008-records): one study a hospital performed or a patient uploaded; see the migration. */
export interface ExamsTable {
  id: string
  hospital_id: string | null
  owner_user_id: string | null
  /** 'hospital' | 'upload' */
  source: string
  study_uid: string | null
  accession_number: string | null
  /** Keyed digest of the resident ID number (same digest as id_cards.number_hash). */
  patient_key: string | null
  patient_name_hash: string | null
  patient_name_encrypted: string | null
  patient_phone_encrypted: string | null
  patient_sex: string | null
  patient_birth_date: string | null
  modalities: string
  body_part: string | null
  description: string | null
  study_date: string | null
  study_time: string | null
  title: string | null
  hospital_text: string | null
  notes: string | null
  series_count: number
  instance_count: number
  size_bytes: number
  /** 'receiving' | 'processing' | 'ready' | 'failed' */
  status: string
  status_message: string | null
  created_at: string
  updated_at: string
}

export interface SeriesTable {
  id: string
  exam_id: string
  series_uid: string
  modality: string | null
  series_number: number | null
  description: string | null
  body_part: string | null
  instance_count: number
  created_at: string
}

export interface InstancesTable {
  id: string
  exam_id: string
  series_id: string
  sop_instance_uid: string
  sop_class_uid: string | null
  instance_number: number | null
  transfer_syntax: string
  rows: number | null
  columns: number | null
  frame_count: number
  file_key: string
  file_size: number
  pixels_key: string | null
  /** 'u8' | 'u16' | 's16' | 'rgb8'; null without decoded pixels */
  pixel_format: string | null
  frame_bytes: number | null
  /** 'ready' | 'unsupported' | 'failed' | 'none' */
  preview_status: string
  preview_message: string | null
  metadata_json: string
  created_at: string
}

/** A hospital's FHIR DiagnosticReport, latest version; earlier ones in report_versions. */
export interface ReportsTable {
  id: string
  exam_id: string
  hospital_id: string
  resource_id: string
  status: string
  version: number
  code_text: string | null
  findings: string | null
  conclusion: string | null
  performer: string | null
  reviewer: string | null
  effective_at: string | null
  issued_at: string | null
  resource_json: string
  created_at: string
  updated_at: string
}

export interface ReportVersionsTable {
  id: string
  report_id: string
  version: number
  status: string
  resource_json: string
  recorded_at: string
}

export interface ExamFilesTable {
  id: string
  exam_id: string
  user_id: string
  /** 'photo' */
  kind: string
  file_key: string
  mime_type: string
  size_bytes: number
  width: number | null
  height: number | null
  created_at: string
}

export interface ExamClaimsTable {
  user_id: string
  exam_id: string
  /** 'query' | 'scan' */
  via: string
  created_at: string
}

export interface ExamUserStatesTable {
  user_id: string
  exam_id: string
  report_private: number
  report_read_at: string | null
  archived_at: string | null
  hidden_at: string | null
  updated_at: string
}

export interface IngestJobsTable {
  id: string
  /** 'stow' | 'upload' */
  kind: string
  hospital_id: string | null
  user_id: string | null
  exam_id: string | null
  /** 'receiving' | 'queued' | 'running' | 'done' | 'failed' | 'cancelled' */
  status: string
  staging_prefix: string
  file_name: string | null
  total_bytes: number | null
  received_bytes: number
  stored_count: number
  duplicate_count: number
  skipped_count: number
  attempts: number
  /** For people: why it failed or was cancelled (Chinese). */
  message: string | null
  /** For code: a contract/reasons.ts value when the ending is one code acts on (storage.full). */
  reason: string | null
  result_json: string | null
  locked_by: string | null
  locked_until: string | null
  created_at: string
  updated_at: string
  finished_at: string | null
  /** Timers (0024): the job is not taken before this time (the app's clock). */
  run_after: string | null
  /** What a timer or refund job acts on (0024): a consultation's id, a refund number. */
  subject_id: string | null
}

export interface StorageUsageTable {
  user_id: string
  used_bytes: number
  updated_at: string
}

/** A patient's bookmark of one frame (0010-bookmarks). */
export interface BookmarksTable {
  id: string
  user_id: string
  exam_id: string
  instance_id: string
  series_uid: string
  sop_instance_uid: string
  frame: number
  note: string
  created_at: string
}

/** How many bookmarks a person has on an exam: the place reserved before each insert. */
export interface BookmarkCountsTable {
  user_id: string
  exam_id: string
  count: number
}

/**
 * Change counters the database bumps itself (migration 0011's triggers) whenever a row the patient
 * lists read changes; domain/patient/list-cache.ts keeps an answer only while they stay put.
 * subject: `u:<user id>`, `p:<patient key>`, or `*` (every list).
 */
export interface RecordGenerationsTable {
  subject: string
  generation: number
}

/**
 * A family member managed by another account (0013): while ended_at is null the manager sees the
 * member's records. kind 'child' (a person under 14 without a login) or 'adult' (agreed by SMS).
 */
export interface FamilyLinksTable {
  id: string
  manager_user_id: string
  member_user_id: string
  kind: 'child' | 'adult'
  /** contract FAMILY_RELATIONS */
  relation: string
  created_at: string
  ended_at: string | null
}

/** A message to a person (0013); link is JSON `{ route, params }` or null. */
export interface MessagesTable {
  id: string
  user_id: string
  /** contract MESSAGE_KINDS */
  kind: string
  title: string
  body: string
  link: string | null
  read_at: string | null
  created_at: string
}

/** A grant of a person's records (0014): to an account, or to whoever holds a link. */
export interface GrantsTable {
  id: string
  person_user_id: string
  created_by_user_id: string | null
  audience: 'account' | 'link'
  grantee_user_id: string | null
  token_hash: string | null
  pickup_hash: string | null
  max_views: number | null
  opens: number
  created_at: string
  expires_at: string
  revoked_at: string | null
  first_viewed_at: string | null
  /** 0024: 'share' (授权记录 made by hand) or 'consultation' (made by submitting one, labelled 咨询). */
  purpose: 'share' | 'consultation'
  consultation_id: string | null
}

/** What a grant covers (0014): an exam's images or one report, with the exam it hangs on. */
export interface GrantRecordsTable {
  grant_id: string
  kind: 'exam' | 'report'
  record_id: string
  exam_id: string
  private: number
}

/** One view (0014): one viewer session on one record of a grant. */
export interface GrantViewsTable {
  id: string
  grant_id: string
  viewer_session: string
  viewer_user_id: string | null
  record_kind: 'exam' | 'report'
  record_id: string
  exam_id: string
  place: string
  first_at: string
  last_at: string
}

/** A link visitor's session (0014): the `yxs_` token's SHA-256. */
export interface ShareSessionsTable {
  id: string
  grant_id: string
  token_hash: string
  created_at: string
  expires_at: string
}

/** A file operators upload or feedback names (0015): public once attached, except feedback images. */
export interface ContentFilesTable {
  id: string
  kind: 'cover' | 'poster' | 'video' | 'icon' | 'feedback'
  storage_key: string
  mime_type: string
  size_bytes: number
  width: number | null
  height: number | null
  uploaded_by_user_id: string | null
  created_at: string
  attached_at: string | null
  /** A video's length from its MP4 header (0017); null for pictures and demo files. */
  duration_seconds: number | null
}

export interface ArticleTypesTable {
  id: string
  name: string
  sort_order: number
  created_at: string
}

/** An article (0015); counters move only with the row that justifies them. */
export interface ArticlesTable {
  id: string
  type_id: string
  title: string
  summary: string
  /** Sanitised HTML (contract ARTICLE_TAGS). */
  html: string
  /** The body without tags, for the search index. */
  plain_text: string
  cover_file_id: string | null
  author: string | null
  source: string | null
  state: 'draft' | 'published' | 'unpublished'
  /** JSON array: what the sanitiser removed at the last save. */
  removed: string
  demo: number
  published_at: string | null
  created_at: string
  updated_at: string
  updated_by_user_id: string | null
  read_count: number
  like_count: number
  favourite_count: number
}

/** One read per (article, reader, China's day): reader is `u:<user id>` or `r:<X-Reader-Id>`. */
export interface ArticleReadsTable {
  article_id: string
  reader: string
  day: string
  user_id: string | null
  created_at: string
}

export interface ArticleLikesTable {
  article_id: string
  user_id: string
  created_at: string
}

export interface VideosTable {
  id: string
  category: 'talk' | 'firstAid' | 'diet'
  title: string
  summary: string
  video_file_id: string
  poster_file_id: string | null
  duration_seconds: number
  state: 'draft' | 'published' | 'unpublished'
  demo: number
  published_at: string | null
  created_at: string
  updated_at: string
  updated_by_user_id: string | null
  play_count: number
  favourite_count: number
}

export interface VideoPositionsTable {
  video_id: string
  user_id: string
  seconds: number
  updated_at: string
}

export interface SearchHistoryTable {
  id: string
  user_id: string
  q: string
  searched_at: string
}

export interface SearchCountsTable {
  q: string
  day: string
  count: number
}

export interface HotWordsTable {
  q: string
  sort_order: number
  created_at: string
}

export interface FavouritesTable {
  user_id: string
  /** contract FAVOURITE_KINDS */
  kind: string
  target_id: string
  created_at: string
}

export interface FeedbackTable {
  id: string
  user_id: string
  type: string
  text: string
  contact: string | null
  status: 'open' | 'replied' | 'closed'
  created_at: string
  reply_text: string | null
  replied_at: string | null
  replied_by_user_id: string | null
  adopted: number
}

export interface FeedbackImagesTable {
  feedback_id: string
  position: number
  file_id: string
}

/** A person's points (0015): CHECK balance >= 0; moved with its point_entries row. */
export interface PointBalancesTable {
  user_id: string
  balance: number
  updated_at: string
}

export interface PointEntriesTable {
  id: string
  user_id: string
  /** contract POINT_REASONS */
  reason: string
  /** What earned it; (user_id, reason, ref) is unique. */
  ref: string
  delta: number
  balance_after: number
  created_at: string
}

export interface FeaturesTable {
  key: string
  name: string
  icon_path: string
  /** JSON of contract AppFeature['link']. */
  link: string
  sort_order: number
  enabled: number
  updated_at: string
}

export interface WebOriginsTable {
  origin: string
  created_at: string
}

/** One change an operator made (0017); never updated or deleted. */
export interface OperatorActionsTable {
  id: string
  operator_user_id: string
  /** contract OPERATOR_ACTIONS */
  action: string
  target_id: string
  detail: string | null
  created_at: string
}

/** An expert certification application (migration 0021, contract/main/experts.ts). */
export interface HospitalRequestsTable {
  id: string
  user_id: string
  name: string
  province: string
  city: string
  address: string | null
  /** contract HOSPITAL_REQUEST_STATUSES */
  status: 'pending' | 'added' | 'declined'
  hospital_id: string | null
  decline_reason: string | null
  decided_by: string | null
  decided_at: string | null
  created_at: string
}

export interface ExpertApplicationsTable {
  id: string
  user_id: string
  /** contract EXPERT_APPLICATION_STATUSES; at most one draft or pending per user (partial unique index) */
  status: 'draft' | 'pending' | 'approved' | 'rejected' | 'withdrawn'
  hospital_id: string | null
  department: string | null
  /** contract EXPERT_TITLES */
  title: string | null
  /** The field cipher's ciphertext, like ID numbers. */
  practice_cert_encrypted: string | null
  qualification_cert_encrypted: string | null
  /** contract PRACTICE_CATEGORIES */
  practice_category: string | null
  practice_scope: string | null
  /** JSON array of strings */
  specialities: string
  introduction: string
  agreement_version: string | null
  reject_reason: string | null
  submitted_at: string | null
  decided_at: string | null
  decided_by: string | null
  /** The person's request to add the hospital (hospital_requests), while or since it was waited for. */
  hospital_request_id: string | null
  /** Bumped on every change: a save that read an older one is refused. */
  version: number
  created_at: string
  updated_at: string
}

/** A certificate photo, re-encoded as JPEG without metadata, stored privately. */
export interface ExpertApplicationPhotosTable {
  id: string
  application_id: string
  /** contract EXPERT_PHOTO_KINDS */
  kind: string
  storage_key: string
  mime_type: string
  size_bytes: number
  width: number
  height: number
  created_at: string
}

/** The certified profile: written only when an operator approves an application. */
export interface ExpertsTable {
  user_id: string
  application_id: string
  hospital_id: string
  department: string
  title: string
  /** JSON array of strings */
  specialities: string
  introduction: string
  certified_at: string
  updated_at: string
  suspended_at: string | null
  suspended_reason: string | null
  /** The operator who suspended (0022). */
  suspended_by: string | null
  /** The certified name, the bound ID card holder's, copied at approval (0022); public. */
  name: string | null
  /** 0/1: 接诊中 (the expert's own switch, 0022). */
  accepting: number
  /** New consultations a day (0022). */
  daily_limit: number
  /** 0/1 and integer fen per service (contract CONSULT_SERVICES, 0022). */
  text_enabled: number
  text_price_fen: number
  imaging_enabled: number
  imaging_price_fen: number
  /** A public picture path, or null (0022). */
  photo_path: string | null
  /** 0/1: a demo expert (演示专家, 0022). */
  demo: number
  /** Follow-up messages a patient may send after the first answer (0024; default 3). */
  followup_limit: Generated<number>
}

export interface Database {
  policy_documents: PolicyDocumentsTable
  seed_runs: SeedRunsTable
  users: UsersTable
  sessions: SessionsTable
  sms_codes: SmsCodesTable
  guardian_invitations: GuardianInvitationsTable
  sms_outbox: SmsOutboxTable
  login_failures: LoginFailuresTable
  rate_events: RateEventsTable
  limit_counters: LimitCountersTable
  consents: ConsentsTable
  expert_applications: ExpertApplicationsTable
  expert_application_photos: ExpertApplicationPhotosTable
  experts: ExpertsTable
  hospital_requests: HospitalRequestsTable
  code_tickets: CodeTicketsTable
  id_cards: IdCardsTable
  notice_settings: NoticeSettingsTable
  tracks: TracksTable
  qr_logins: QrLoginsTable
  files: FilesTable
  user_merges: UserMergesTable
  hospitals: HospitalsTable
  hospital_api_keys: HospitalApiKeysTable
  departments: DepartmentsTable
  audit_events: AuditEventsTable
  exams: ExamsTable
  series: SeriesTable
  instances: InstancesTable
  reports: ReportsTable
  report_versions: ReportVersionsTable
  exam_files: ExamFilesTable
  exam_claims: ExamClaimsTable
  exam_user_states: ExamUserStatesTable
  ingest_jobs: IngestJobsTable
  storage_usage: StorageUsageTable
  bookmarks: BookmarksTable
  bookmark_counts: BookmarkCountsTable
  record_generations: RecordGenerationsTable
  id_card_appeals: IdCardAppealsTable
  family_links: FamilyLinksTable
  messages: MessagesTable
  grants: GrantsTable
  grant_records: GrantRecordsTable
  grant_views: GrantViewsTable
  share_sessions: ShareSessionsTable
  content_files: ContentFilesTable
  article_types: ArticleTypesTable
  articles: ArticlesTable
  article_reads: ArticleReadsTable
  article_likes: ArticleLikesTable
  videos: VideosTable
  video_positions: VideoPositionsTable
  search_history: SearchHistoryTable
  search_counts: SearchCountsTable
  hot_words: HotWordsTable
  favourites: FavouritesTable
  feedback: FeedbackTable
  feedback_images: FeedbackImagesTable
  point_balances: PointBalancesTable
  point_entries: PointEntriesTable
  features: FeaturesTable
  web_origins: WebOriginsTable
  operator_actions: OperatorActionsTable
  consultations: ConsultationsTable
  consultation_events: ConsultationEventsTable
  consultation_messages: ConsultationMessagesTable
  consultation_pictures: ConsultationPicturesTable
  consultation_refunds: ConsultationRefundsTable
  consultation_complaints: ConsultationComplaintsTable
  ledger_accounts: LedgerAccountsTable
  ledger_transfers: LedgerTransfersTable
  ledger_entries: LedgerEntriesTable
  ledger_statement_lines: LedgerStatementLinesTable
  app_settings: AppSettingsTable
  withdrawals: WithdrawalsTable
  opinion_template_variants: OpinionTemplateVariantsTable
  opinion_drafts: OpinionDraftsTable
  opinions: OpinionsTable
  wallet_day_totals: WalletDayTotalsTable
  wallet_reconciliations: WalletReconciliationsTable
  demo_transfer_bills: DemoTransferBillsTable
  ai_analyses: AiAnalysesTable
  exam_requests: ExamRequestsTable
  data_exports: DataExportsTable
}

/** A consultation (0024): its order, application, state and the deadline of each state. */
export interface ConsultationsTable {
  id: string
  /** Who asked and paid (the account holder). */
  patient_user_id: string
  /** For whom: the patient, or a family member they manage. */
  person_user_id: string
  expert_user_id: string
  /** contract ConsultService */
  service: string
  /** contract ConsultState */
  state: string
  price_fen: number
  expert_fen: number
  platform_fen: number
  share_bp: number
  chief_complaint: string
  present_illness: string
  past_history: string
  allergies: string
  questions: string
  seen_offline: number
  /** ExternalExam[] plus the offline-diagnosis picture ids: { offline: string[], exams: [...] } */
  external_exams_json: string
  followup_limit: number
  followups_used: number
  grant_id: string
  consent_version: string
  order_no: string
  /** 'wechatpay' | 'demo' | 'unconfigured' when the order was made */
  provider: string
  transaction_id: string | null
  /** The limits row key holding the expert's daily slot (released when unpaid orders close). */
  daily_slot_key: string | null
  pay_by: string
  paid_at: string | null
  accept_by: string | null
  accepted_at: string | null
  answer_by: string | null
  answered_at: string | null
  complete_at: string | null
  completed_at: string | null
  ended_at: string | null
  settle_at: string | null
  settled_at: string | null
  decline_reason: string | null
  message_seq: number
  patient_read_seq: number
  expert_read_seq: number
  adopted_at: string | null
  rating_stars: number | null
  /** JSON string[] */
  rating_tags: string | null
  rating_text: string | null
  rated_at: string | null
  published_at: string | null
  deleted_by_patient_at: string | null
  demo: number
  created_at: string
  updated_at: string
}

export interface ConsultationEventsTable {
  id: string
  consultation_id: string
  state: string
  /** 'patient' | 'expert' | 'system' | 'operator' */
  actor: string
  note: string | null
  at: string
}

export interface ConsultationMessagesTable {
  id: string
  consultation_id: string
  seq: number
  /** 'patient' | 'expert' | 'system' */
  sender: string
  sender_user_id: string | null
  client_id: string | null
  /** contract CONSULT_MESSAGE_KINDS */
  kind: string
  text: string
  picture_id: string | null
  record_kind: string | null
  record_id: string | null
  /** ConsultAnswer JSON for 'answer' / 'addendum' */
  answer_json: string | null
  signed_at: string | null
  created_at: string
  /** ConsultExamRequestCard JSON for 'exam-request' (0030) */
  exam_request_json: Generated<string | null>
}

export interface ConsultationPicturesTable {
  id: string
  owner_user_id: string
  /** null until an application or a message uses it. */
  consultation_id: string | null
  object_key: string
  content_type: string
  width: number | null
  height: number | null
  bytes: number
  created_at: string
}

export interface ConsultationRefundsTable {
  refund_no: string
  consultation_id: string
  amount_fen: number
  /** 'processing' | 'succeeded' | 'failed' */
  state: string
  reason: string
  provider_refund_id: string | null
  created_at: string
  succeeded_at: string | null
}

export interface ConsultationComplaintsTable {
  consultation_id: string
  user_id: string
  text: string
  /** 'open' | 'decided' */
  state: string
  refund_fen: number | null
  decision_note: string | null
  decided_by: string | null
  created_at: string
  decided_at: string | null
}

/** A ledger account (0024): its balance is the sum of its entries, cached and checked. */
export interface LedgerAccountsTable {
  /** `kind:owner` e.g. escrow:<consultation>, expert-pending:<user>, platform-revenue */
  id: string
  kind: string
  owner_id: string | null
  allow_negative: number
  balance: number
  created_at: string
}

export interface LedgerTransfersTable {
  id: string
  /** The outside event that caused it: applied once. */
  event_key: string
  kind: string
  consultation_id: string | null
  /** The withdrawal it belongs to (0025), for 交易记录's detail. */
  withdrawal_id: Generated<string | null>
  created_at: string
}

export interface LedgerEntriesTable {
  id: string
  transfer_id: string
  account_id: string
  amount: number
  created_at: string
}

/**
 * A statement line (0026): one per expert and per ledger transfer touching any of that expert's
 * accounts, with the transfer's change to each; written with the entries, never changed (交易记录).
 */
export interface LedgerStatementLinesTable {
  /** The expert: the owner of the expert-pending / expert-available / expert-withdrawing accounts. */
  owner_id: string
  transfer_id: string
  /** The transfer's kind, time, consultation and withdrawal, as on ledger_transfers. */
  kind: string
  created_at: string
  pending_change: number
  available_change: number
  withdrawing_change: number
  consultation_id: string | null
  withdrawal_id: string | null
}

export interface AppSettingsTable {
  key: string
  value: string
  updated_by: string | null
  updated_at: string
}

/** An expert's withdrawal (0025, contract/main/wallet.ts): held in the ledger, paid by a provider. */
export interface WithdrawalsTable {
  id: string
  expert_user_id: string
  /** The app's id for the attempt: unique per expert, a retry answers the same withdrawal. */
  client_id: string
  /** Our bill number at the provider (out_bill_no): the same on every retry. */
  out_bill_no: string
  /** The expert's id while in flight, null once final: at most one in flight per expert. */
  active_key: string | null
  gross_fen: number
  tax_fen: number
  net_fen: number
  /** contract WalletTaxSchema as JSON. */
  tax_json: string
  tax_year: number
  /** YYYY-MM, China time: the month the tax was computed for. */
  tax_month: string
  /** YYYY-MM-DD, China time: the day whose limits it counts against. */
  day: string
  /** contract WITHDRAWAL_STATES */
  state: string
  reason: string | null
  /** 微信零钱（张*） as it was when made. */
  target_label: string
  /** The transfer provider it was made with ('wechatpay' | 'demo' | 'unconfigured'). */
  provider: string
  /** The provider's last state (TRANSFER_STATES), null before any answer. */
  provider_state: string | null
  provider_code: string | null
  provider_bill_no: string | null
  package_info: string | null
  /** How many times the job asked the provider (its backoff). */
  polls: Generated<number>
  created_at: string
  updated_at: string
  /** When the provider was first asked to create the bill. */
  sent_at: string | null
  paid_at: string | null
  finished_at: string | null
  reviewed_by: string | null
  reviewed_at: string | null
  /**
   * The payee as when it was made (0027): the ID card's holder and number, the field cipher's
   * ciphertext copied from id_cards, and the expert's hospital. The income report's identity once
   * the account is deleted; null when the expert had none (or was deleted before 0027).
   */
  payee_name_encrypted: string | null
  payee_id_number_encrypted: string | null
  payee_hospital_name: string | null
}

/** What was withdrawn per China day: `expert:<user>:<day>` and `platform:<day>` (0025). */
export interface WalletDayTotalsTable {
  key: string
  total_fen: number
  updated_at: string
}

/** The last comparison of the provider's daily statement with our withdrawals (0025). */
export interface WalletReconciliationsTable {
  date: string
  provider: string
  checked_at: string
  provider_count: number
  ledger_count: number
  difference_count: number
  differences_json: string
}

/** The 演示提现 provider's bills (0025): no money moves; its states follow from these times. */
export interface DemoTransferBillsTable {
  out_bill_no: string
  bill_no: string
  amount_fen: number
  needs_confirm: number
  created_at: string
  confirmed_at: string | null
  cancelled_at: string | null
}

/** An expert's own variant of a built-in report template (0028): its name and default values. */
export interface OpinionTemplateVariantsTable {
  id: string
  expert_user_id: string
  template_id: string
  name: string
  values_json: string
  created_at: string
  updated_at: string
}

/** The opinion an expert is writing, one per consultation (0028); deleted when it is signed. */
export interface OpinionDraftsTable {
  consultation_id: string
  expert_user_id: string
  template_id: string
  variant_id: string | null
  values_json: string
  pins_json: string
  /** Field id → the AI analysis its text began from. */
  ai_json: string
  updated_at: string
}

/** A signed opinion (0028): never updated (a trigger refuses it); domain/opinions. */
export interface OpinionsTable {
  id: string
  consultation_id: string
  message_id: string
  expert_user_id: string
  template_id: string
  template_version: number
  template_title: string
  values_json: string
  sentences_json: string
  pins_json: string
  /** `{ provider, fieldIds }` or null: which fields began as an AI draft, and whose. */
  ai_json: string
  signer_json: string
  patient_label: string
  verify_code: string
  content_hash: string
  signed_at: string
}

/** An AI analysis an exam's person asked for (0029); its result is for a consultation's expert only. */
export interface AiAnalysesTable {
  id: string
  exam_id: string
  person_user_id: string
  requested_by_user_id: string | null
  provider_id: string
  /** contract AiProvider as it was when asked */
  provider_json: string
  /** 'queued' | 'done' | 'failed' (running: the job's status) */
  state: string
  job_id: string
  message: string | null
  template_id: string | null
  /** { values: OpinionValues, computed: [...] }: never served to the patient */
  result_json: string | null
  created_at: string
  updated_at: string
  finished_at: string | null
}

/** An expert's 检查建议 in a consultation (0030); domain/exam-requests. */
export interface ExamRequestsTable {
  id: string
  /** JC + YYYYMMDD + 6 random digits: the Code 128 bar code's content */
  number: string
  consultation_id: string
  message_id: string
  expert_user_id: string
  client_id: string
  /** contract EXAM_TYPES */
  exam_type: string
  exam_name: string | null
  body_part: string
  /** contract EXAM_CONTRASTS */
  contrast: string
  /** contract EXAM_URGENCIES */
  urgency: string
  reason: string
  /** { nameMasked, sexLabel, age } as the consultation showed the person */
  patient_json: string
  /** { name, titleLabel, hospitalName, department } */
  expert_json: string
  created_at: string
}

export type DB = Kysely<Database>

/** A request for a copy of a person's data (0032, domain/data-export). */
export interface DataExportsTable {
  id: string
  person_user_id: string
  requested_by_user_id: string
  job_id: string | null
  /** 'building' | 'sent' | 'downloaded' | 'expired' | 'failed' */
  state: string
  archive_key: string | null
  size_bytes: number | null
  /** SHA-256 of the one-use link's token; the token itself travels only in the SMS. */
  token_hash: string | null
  expires_at: string | null
  downloaded_at: string | null
  message: string | null
  /** The origin the SMS link names (PUBLIC_URL, or the request's origin outside production). */
  link_origin: string | null
  created_at: string
  updated_at: string
}
