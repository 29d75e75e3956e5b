import { z } from 'zod/mini'
import { PageQuerySchema, pageOf } from '../common'
import { defineEndpoint } from '../endpoint'
import { HOSPITAL_CARD, HospitalSchema } from '../hospitals'
import { QueryFlagSchema } from '../main/records'

/*
 * The personal image service's region and hospital lookups (SPEC section 7: area data, hospital
 * list, current location, default area, AI report hospitals), for personalImage/imageHospital.
 * Regions are GB/T 2260 codes: a province 110000, a city 110100, a district 110101. Only regions
 * where we have hospitals are listed.
 */

/** A province, city or district code: six digits. */
export const RegionCodeSchema = z
  .string()
  .check(z.regex(/^\d{6}$/, '地区代码应为 6 位数字（如 110000、110100、110101）'))

export interface AreaNode {
  code: string
  name: string
  /** Hospitals in this region (with its sub-regions). */
  hospitalCount: number
  /** Cities of a province, districts of a city; absent on districts. */
  children?: AreaNode[]
}
export const AreaNodeSchema: z.ZodMiniType<AreaNode> = z.object({
  code: z.string(),
  name: z.string(),
  hospitalCount: z.number(),
  get children() {
    return z.optional(z.array(AreaNodeSchema))
  },
})

export const getAreaData = defineEndpoint({
  service: 'image',
  method: 'GET',
  path: '/areas',
  input: z.object({}),
  /** Provinces → cities → districts, each sorted by code. */
  output: z.array(AreaNodeSchema),
  auth: false,
  summary: '地区数据（有合作医院的省、市、区县）',
})

/** A picked region: province and city always, district when known. */
export const AreaRefSchema = z.object({
  provinceCode: z.string(),
  provinceName: z.string(),
  cityCode: z.string(),
  cityName: z.string(),
  districtCode: z.nullable(z.string()),
  districtName: z.nullable(z.string()),
})
export type AreaRef = z.infer<typeof AreaRefSchema>

/** The hospital picker shows where a hospital is and whether it offers AI reporting. */
export const ImageHospitalSchema = z.pick(HospitalSchema, {
  ...HOSPITAL_CARD,
  regionCode: true,
  regionName: true,
  aiReporting: true,
})
export type ImageHospital = z.infer<typeof ImageHospitalSchema>

export const listImageHospitals = defineEndpoint({
  service: 'image',
  method: 'GET',
  path: '/hospitals',
  input: z.extend(PageQuerySchema, {
    /** A province, city or district code: hospitals inside it. */
    regionCode: z.optional(RegionCodeSchema),
    /** Part of the hospital's name (or city). */
    keyword: z.optional(z.string().check(z.maxLength(30, '关键字最多 30 个字'))),
    /** Only hospitals with AI reporting. */
    aiOnly: QueryFlagSchema,
  }),
  output: pageOf(ImageHospitalSchema),
  auth: false,
  summary: '医院列表（按地区筛选、按名称搜索）',
})

export const listAiHospitals = defineEndpoint({
  service: 'image',
  method: 'GET',
  path: '/hospitals/ai',
  input: z.object({ regionCode: z.optional(RegionCodeSchema) }),
  output: z.array(ImageHospitalSchema),
  auth: false,
  summary: '提供 AI 报告的医院',
})

export const getDefaultArea = defineEndpoint({
  service: 'image',
  method: 'GET',
  path: '/areas/default',
  input: z.object({}),
  /**
   * The region of the hospital of my newest exam; without one, the region with the most hospitals;
   * null when no hospital has a region.
   */
  output: z.nullable(AreaRefSchema),
  auth: true,
  summary: '默认地区',
})

export const getCurrentLocation = defineEndpoint({
  service: 'image',
  method: 'GET',
  path: '/location',
  input: z.object({
    latitude: z.coerce
      .number({ error: '缺少纬度' })
      .check(z.minimum(-90, '纬度应在 -90 到 90 之间'), z.maximum(90, '纬度应在 -90 到 90 之间')),
    longitude: z.coerce
      .number({ error: '缺少经度' })
      .check(
        z.minimum(-180, '经度应在 -180 到 180 之间'),
        z.maximum(180, '经度应在 -180 到 180 之间'),
      ),
  }),
  /**
   * The region of our hospitals nearest to the coordinates (the app's own location; no outside
   * service is asked), and how far its centre is; area null when no hospital has a region.
   */
  output: z.object({ area: z.nullable(AreaRefSchema), distanceKm: z.nullable(z.number()) }),
  auth: false,
  summary: '当前位置所在（最近的有合作医院的）地区',
})
