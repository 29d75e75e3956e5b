import type { CreatedGrant, Grant, GrantRecord, GrantView } from '@/services/grants'

/** Answers shaped as contract/main/grants.ts says. */

export function grantRecord(overrides: Partial<GrantRecord> = {}): GrantRecord {
  return {
    kind: 'exam',
    id: 'x1',
    examId: 'x1',
    title: '胸部 CT 平扫',
    hospitalName: '四川省人民医院',
    studyDate: '2026-11-20',
    modalities: ['CT'],
    private: false,
    ...overrides,
  }
}

export function grant(n: number, overrides: Partial<Grant> = {}): Grant {
  return {
    id: `g${n}`,
    audience: 'link',
    purpose: 'share',
    purposeLabel: '分享',
    status: 'active',
    statusLabel: '有效',
    personId: 'u1',
    personNameMasked: '张*',
    records: [grantRecord()],
    grantee: null,
    pickupCode: true,
    maxViews: null,
    views: 0,
    opens: 0,
    lastViewAt: null,
    createdAt: '2026-11-23T02:00:00.000Z',
    expiresAt: '2026-11-24T02:00:00.000Z',
    revokedAt: null,
    ...overrides,
  }
}

export function created(
  overrides: Partial<Grant> = {},
  pickupCode: string | null = '4821',
): CreatedGrant {
  return {
    grant: grant(1, overrides),
    link: {
      token: 'tok123',
      path: '/pages/share/share?token=tok123',
      url: 'http://127.0.0.1:8080/pages/share/share?token=tok123',
      pickupCode,
      title: '张**分享的影像',
    },
  }
}

export function view(n: number, overrides: Partial<GrantView> = {}): GrantView {
  return {
    grantId: 'g1',
    viewer: '分享访客',
    viewerKind: 'link',
    record: grantRecord(),
    firstAt: `2026-11-23T0${n}:00:00.000Z`,
    lastAt: `2026-11-23T0${n}:05:00.000Z`,
    place: '北京市',
    ...overrides,
  }
}
