import { pageConfig } from '../../../routes'

export default definePageConfig(pageConfig('uview-ui/components/u-avatar-cropper/u-avatar-cropper'))
