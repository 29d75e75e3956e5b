// Taro 4 decides its platform from these at import time; without them an import cycle leaves
// `history` undefined. @tarojs/taro must be required before anything else of Taro's.
process.env.TARO_ENV = 'h5'
process.env.TARO_PLATFORM = 'web'
process.env.FRAMEWORK = 'react'
require('./taro-h5')
