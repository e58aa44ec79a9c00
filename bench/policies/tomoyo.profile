PROFILE_VERSION=20150505
5-COMMENT=bench: the equivalent rule set
5-CONFIG={ mode=disabled }
5-CONFIG::file::open={ mode=enforcing grant_log=no reject_log=no }
5-CONFIG::file::execute={ mode=enforcing grant_log=no reject_log=no }
5-CONFIG::network::inet_stream_connect={ mode=enforcing grant_log=no reject_log=no }
