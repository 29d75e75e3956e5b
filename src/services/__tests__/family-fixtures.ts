import type { Family, FamilyMember } from '@/services/family'

/** Answers shaped as contract/main/family.ts says. */

export const CHILD: FamilyMember = {
  id: 'link-child',
  personId: 'p-child',
  kind: 'child',
  relation: 'child',
  relationLabel: '子女',
  nameMasked: '张*宝',
  mobileMasked: null,
  createdAt: '2026-11-20T02:00:00.000Z',
}

export const SPOUSE: FamilyMember = {
  id: 'link-spouse',
  personId: 'p-spouse',
  kind: 'adult',
  relation: 'spouse',
  relationLabel: '配偶',
  nameMasked: null,
  mobileMasked: '139****0001',
  createdAt: '2026-11-21T02:00:00.000Z',
}

export function family(
  members: FamilyMember[] = [CHILD],
  managers: Family['managers'] = [],
): Family {
  return { self: { personId: 'u1', nameMasked: '张*' }, members, managers }
}
