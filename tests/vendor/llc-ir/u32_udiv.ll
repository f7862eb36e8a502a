; unsigned 32-bit division of two scalar arguments by llvm.tpc.udiv.step
; (udiv_4step: 4 steps of restoring division each, on the pair {remainder,
; quotient} that starts as {dividend, 0}), steps 31 down to 0 (the step
; number must be a constant); out0 = quotient, out1 = remainder, broadcast
target triple = "tpc"

define void @main(i32 %num, i32 %den) {
entry:
  %p0 = insertelement <2 x i32> zeroinitializer, i32 %num, i32 0
  %p1 = call <2 x i32> @llvm.tpc.udiv.step.v2i32.i32(i32 %den, i32 31, i8 3, i32 0, <2 x i32> %p0, i1 true, i1 false)
  %p2 = call <2 x i32> @llvm.tpc.udiv.step.v2i32.i32(i32 %den, i32 27, i8 3, i32 0, <2 x i32> %p1, i1 true, i1 false)
  %p3 = call <2 x i32> @llvm.tpc.udiv.step.v2i32.i32(i32 %den, i32 23, i8 3, i32 0, <2 x i32> %p2, i1 true, i1 false)
  %p4 = call <2 x i32> @llvm.tpc.udiv.step.v2i32.i32(i32 %den, i32 19, i8 3, i32 0, <2 x i32> %p3, i1 true, i1 false)
  %p5 = call <2 x i32> @llvm.tpc.udiv.step.v2i32.i32(i32 %den, i32 15, i8 3, i32 0, <2 x i32> %p4, i1 true, i1 false)
  %p6 = call <2 x i32> @llvm.tpc.udiv.step.v2i32.i32(i32 %den, i32 11, i8 3, i32 0, <2 x i32> %p5, i1 true, i1 false)
  %p7 = call <2 x i32> @llvm.tpc.udiv.step.v2i32.i32(i32 %den, i32 7, i8 3, i32 0, <2 x i32> %p6, i1 true, i1 false)
  %p8 = call <2 x i32> @llvm.tpc.udiv.step.v2i32.i32(i32 %den, i32 3, i8 3, i32 0, <2 x i32> %p7, i1 true, i1 false)
  %rem = extractelement <2 x i32> %p8, i32 0
  %quo = extractelement <2 x i32> %p8, i32 1
  %qv = insertelement <64 x i32> undef, i32 %quo, i32 0
  %qs = shufflevector <64 x i32> %qv, <64 x i32> undef, <64 x i32> zeroinitializer
  %rv = insertelement <64 x i32> undef, i32 %rem, i32 0
  %rs = shufflevector <64 x i32> %rv, <64 x i32> undef, <64 x i32> zeroinitializer
  call void @llvm.tpc.st.tnsr.v64i32(<5 x i32> zeroinitializer, i8 0, <64 x i32> %qs, i32 0, i1 true, i1 false)
  call void @llvm.tpc.st.tnsr.v64i32(<5 x i32> zeroinitializer, i8 1, <64 x i32> %rs, i32 0, i1 true, i1 false)
  ret void
}

declare <2 x i32> @llvm.tpc.udiv.step.v2i32.i32(i32, i32, i8, i32, <2 x i32>, i1, i1)
declare void @llvm.tpc.st.tnsr.v64i32(<5 x i32>, i8, <64 x i32>, i32, i1, i1)
