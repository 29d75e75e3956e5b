import { getDeployedBuild as getDeployedBuildEndpoint } from '@contract/main/apps'
import { callEndpoint } from './api'

/** The H5 build the server serves now (null when it serves none), for the update check. */
export async function getDeployedH5Build(): Promise<string | null> {
  const answer = await callEndpoint(
    getDeployedBuildEndpoint,
    {},
    { loading: false, quietOffline: true },
  )
  return answer.h5Build
}
