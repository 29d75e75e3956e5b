import { z } from 'zod/mini'
import { PageQuerySchema, pageOf } from '../common'
import { defineEndpoint } from '../endpoint'
import { HOSPITAL_CARD, HospitalSchema as FullHospitalSchema } from '../hospitals'
import { RoleSchema } from './auth'

/**
 * The directory's hospital: the card (name, grade, place), its district's name for the region
 * cascade of 选择医院, and whether it is demo data, so a picker can mark it 演示 (an expert must not
 * certify at a pretend hospital by mistake).
 */
export const HospitalSchema = z.pick(FullHospitalSchema, {
  ...HOSPITAL_CARD,
  regionName: true,
  demo: true,
})
export type Hospital = z.infer<typeof HospitalSchema>

export const DepartmentSchema = z.object({
  id: z.string(),
  hospitalId: z.string(),
  name: z.string(),
})
export type Department = z.infer<typeof DepartmentSchema>

export const listHospitals = defineEndpoint({
  service: 'sso',
  method: 'GET',
  path: '/hospitals',
  input: z.object({ city: z.optional(z.string().check(z.maxLength(20))) }),
  output: z.array(HospitalSchema),
  auth: false,
  summary: '医院列表',
})

export const pageHospitals = defineEndpoint({
  service: 'sso',
  method: 'GET',
  path: '/hospitals/page',
  input: z.extend(PageQuerySchema, {
    keyword: z.optional(z.string().check(z.maxLength(30, '关键字最多 30 个字'))),
  }),
  output: pageOf(HospitalSchema),
  auth: false,
  summary: '医院分页列表（可按名称搜索）',
})

export const listDepartments = defineEndpoint({
  service: 'sso',
  method: 'GET',
  path: '/departments',
  input: z.object({ hospitalId: z.string().check(z.minLength(1, '请选择医院')) }),
  output: z.array(DepartmentSchema),
  auth: false,
  summary: '科室列表',
})

/** A node of the role-right tree: a group of pages, or one page a role may open. */
export interface RightNode {
  key: string
  title: string
  /** Spec route (`pages/myWallet/myWallet`) for a page node. */
  path?: string
  children?: RightNode[]
}
export const RightNodeSchema: z.ZodMiniType<RightNode> = z.object({
  key: z.string(),
  title: z.string(),
  path: z.optional(z.string()),
  get children() {
    return z.optional(z.array(RightNodeSchema))
  },
})

export const getRoleRights = defineEndpoint({
  service: 'sso',
  method: 'GET',
  path: '/role-rights',
  input: z.object({}),
  output: z.object({ role: RoleSchema, tree: z.array(RightNodeSchema) }),
  auth: true,
  summary: '当前角色可用的功能树',
})
