import { dayjs } from '@/utils/time'
import type { ChipOption } from './components/filter-chips'

/** Date filters every list of images and reports offers; '' = any time. */
export type DatePreset = '' | '1m' | '3m' | '6m' | '1y'

export const DATE_PRESETS: readonly ChipOption<DatePreset>[] = [
  { value: '', label: '全部' },
  { value: '1m', label: '近一个月' },
  { value: '3m', label: '近三个月' },
  { value: '6m', label: '近半年' },
  { value: '1y', label: '近一年' },
]

const MONTHS: Record<Exclude<DatePreset, ''>, number> = { '1m': 1, '3m': 3, '6m': 6, '1y': 12 }

/**
 * The inclusive range (YYYY-MM-DD, the hospital's local calendar, as exams are dated) a preset means
 * today; `{}` for any time. Exam dates are calendar days, so the range is in days, not instants.
 */
export function dateRangeOf(
  preset: DatePreset,
  today: Date = new Date(),
): { dateFrom?: string; dateTo?: string } {
  if (preset === '') return {}
  const end = dayjs(today)
  return {
    dateFrom: end.subtract(MONTHS[preset], 'month').format('YYYY-MM-DD'),
    dateTo: end.format('YYYY-MM-DD'),
  }
}

/**
 * Modalities a person can filter by, in words they know. One chip can stand for several DICOM codes
 * (X线 = CR, DX, DR); the server matches any of them.
 */
export const MODALITY_FILTERS: readonly (ChipOption<string> & { codes: readonly string[] })[] = [
  { value: '', label: '全部', codes: [] },
  { value: 'CT', label: 'CT', codes: ['CT'] },
  { value: 'MR', label: '磁共振', codes: ['MR'] },
  { value: 'DX', label: 'X线', codes: ['CR', 'DX', 'DR'] },
  { value: 'US', label: '超声', codes: ['US'] },
  { value: 'MG', label: '乳腺钼靶', codes: ['MG'] },
  { value: 'NM', label: '核医学', codes: ['NM', 'PT'] },
  { value: 'XA', label: '血管造影', codes: ['XA', 'RF'] },
]

const MODALITY_NAMES: Record<string, string> = {
  CT: 'CT',
  MR: '磁共振',
  CR: 'X线',
  DX: 'X线',
  DR: 'X线',
  US: '超声',
  MG: '钼靶',
  NM: '核医学',
  PT: 'PET',
  XA: '造影',
  RF: '透视',
  ES: '内镜',
  SR: '结构化报告',
  OT: '其他',
}

/** What a modality code is called on a tag (CT, 磁共振, X线); unknown codes stay as they are. */
export function modalityName(code: string): string {
  return MODALITY_NAMES[code.toUpperCase()] ?? code
}
